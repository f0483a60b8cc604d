"""The article's voice in Chinese: the same plan as :mod:`.voice`, without verb agreement.

The user's 我 becomes 用户 (or the speaker's name) and their 你 becomes 我; my own 你
becomes 用户. Frames: "我知道用户…" for what the user says of themselves, "我注意到…" for a
passing mood, "用户请我帮忙…"/"用户问我…" for requests and questions, "用户要求我…" for
instructions, "用户跟我说，…" for the rest; my advice is "我建议用户…", my other
statements "我告诉用户，…". The user's 我们 is usually their team or family (他们), except
where it means the two of us (我们约定/讨论过…).
"""

from __future__ import annotations

import re

from .routing import is_transient
from .sentences import Speaker

__all__ = ["voice_zh"]

_FILLER = re.compile(
    r"^(?:好的?|行|嗯+|哦+|谢谢(?:你|您)?|多谢|哈哈+|你好|您好|嗨|收到|明白了?|没问题|ok|OK|"
    r"再见|拜拜|不客气|恭喜|太好了|加油)[\s，。！!~～.]*$"
)
_DISCOURSE = re.compile(
    r"^(?:你好|您好|嗨|哈喽|对了|其实|另外|顺便说一下|顺便说一句|说真的|话说|嗯|哦|"
    r"告诉你(?:一)?个好消息|跟你说|和你说|我跟你说)[，,！!。：:\s]*"
)
_ACK = re.compile(
    r"^(?:好的|好|明白了?|收到|记住了|记下了|没问题|当然|恭喜(?:你|您)?|太好了|不客气|"
    r"哈哈+|可以的|行|嗯)[，,！!。：:]+"
)
_REQUEST = re.compile(
    r"^(?:你|您)?(?:能|可以|能不能|可不可以|麻烦(?:你|您)?|请(?:你|您)?)?帮(?:我|忙)(.+?)"
    r"(?:吗|吧|呢|呀)?[？?]+$"
)
_WH = re.compile(r"^(?:你|您)?(?:怎么|如何|为什么|什么|哪|多少|几|是否|要不要|该不该|推荐)")
_INSTRUCTION = re.compile(r"^(?:请|麻烦|以后|永远|千万|不要|别|记得|务必|一定要|绝对不要|始终)")
_ADVICE = re.compile(
    r"^(?:先|可以|建议|试试|试着|用|把|注意|记得|别|不要|提前|检查|每天|多|重点|对比|保持|"
    r"打开|关闭|安装|设置|考虑|避免|尽量|装|加|改|换|去|直接|最好|定期|确认|核对|看看|"
    r"留意|控制|减少|增加|调|补)"
)
_VOICED = re.compile(
    r"^(?:我知道|我注意到|我记得|我告诉|我建议用户|用户(?:跟我说|问我|请我|要求我))"
)
_WE_TOGETHER = re.compile(r"我们(?=约定|说好|聊|讨论|商量|之前说|上次说)")


def _user_side(text: str, subject: str) -> str:
    """The user's own words retold: their 我 is ``subject``, their 你 is me."""
    text = _WE_TOGETHER.sub("WE_TOGETHER", text)
    text = text.replace("我们", "他们").replace("WE_TOGETHER", "我们")
    text = re.sub(r"我(?!们)", subject, text)
    return re.sub(r"[你您](?!们)", "我", text)


def _my_side(text: str) -> str:
    """My own words: my 我 stays, my 你 is the user."""
    return re.sub(r"[你您](?!们)", "用户", text)


def _end(text: str) -> str:
    text = re.sub(r"[吧啊哦呀呢嘛]*[！!~～]*$", "", text.rstrip())
    return text if re.search(r"[。？！.?!…]$", text) else text + "。"


def voice_zh(speaker: Speaker, text: str) -> str | None:
    """A Chinese sentence retold in the AI's voice; None when it carries nothing."""
    # The summarizer joins the clauses it cut at a full-width semicolon with a space.
    text = re.sub(r"(?<=[，。；：！？、])\s+|\s+(?=[，。；：！？、])", "", text)
    if speaker.role == "tool":
        return f"我用{speaker.name or '工具'}查到：{text}"
    if speaker.role == "assistant":
        return _assistant(text)
    if speaker.role != "user":  # a summary string: it may be in the voice already
        if _VOICED.match(text):
            return text
        if text.startswith("用户"):
            return _end("我知道" + text)
        if "我" not in text and not re.search(r"[？?]$", text):
            return _end("我记得" + text)
    return _user(text, speaker.name or "用户")


def _user(text: str, subject: str) -> str | None:
    text = _DISCOURSE.sub("", text).strip()
    if not text or _FILLER.match(text):
        return None
    if re.search(r"[？?]$", text):
        return _asked(text, subject)
    if _INSTRUCTION.match(text) and not re.search(r"我(?!们)", text):
        rest = re.sub(r"^请", "", text)
        return _end(f"{subject}要求我{_user_side(rest, subject)}")
    if re.search(r"我(?!们)", text):
        frame = "我注意到" if is_transient(text) else "我知道"
        return _end(frame + _user_side(text, subject))
    return _end(f"{subject}跟我说，{_user_side(text, subject)}")


def _asked(text: str, subject: str) -> str:
    """A question of the user's: a request for help, a wh-question, or any other."""
    if m := _REQUEST.match(text):
        return _end(f"{subject}请我帮忙{_user_side(m.group(1), subject)}")
    if _WH.match(text):
        asked = re.sub(r"^[你您]", "", text)
        return re.sub(r"[？?]$", "。", f"{subject}问我{_user_side(asked, subject)}")
    return f"{subject}问我：{_user_side(text, subject)}"


def _assistant(text: str) -> str | None:
    # An acknowledgement echoes what the user said; a very short line is a wish or a
    # cheer ("搬家顺利"), not a memory.
    short = len(re.findall(r"[\u4e00-\u9fff]", text)) < 6 and not re.search(r"\d", text)
    if _FILLER.match(text) or _ACK.match(text) or short:
        return None
    if re.search(r"[？?]$", text):
        return f"我问用户：{_my_side(text)}"
    if "我" in text or text.startswith("以后"):
        return _end(("" if "我" in text else "我") + _my_side(text))
    if _ADVICE.match(text):
        return _end("我建议用户" + _my_side(re.sub(r"^(?:可以|建议)", "", text)))
    return _end("我告诉用户，" + _my_side(text))
