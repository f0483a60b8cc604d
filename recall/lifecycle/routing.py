"""Which chapter of the long-term article a sentence belongs to, by rules (zh and en).

The chapters (memory design, docs/design.md):

- **Bedrock**: near-permanent facts about the user (name, age, origin, language, job,
  where they live, family, health and diet) and the boundaries I must keep with them.
- **Evolutionary**: slow-moving things: long-term goals, what they are learning or
  training for, preferences, habits and traits, and the conventions we settled on.
- **Dynamic**: everything recent: events, tasks, questions, advice, moods.

A decision list, first match wins: a passing mood or illness, then a question, goes to
Dynamic; a long-term goal to Evolutionary; an identity fact or boundary, or any durable
fact (:mod:`.durable`: diet, allergy, health, family, job), to Bedrock; a preference, habit
or convention to Evolutionary; the rest to Dynamic. A mood said beside a durable fact ("I'm
nervous because I'm vegetarian") is not a passing state: the fact decides. What I (the
assistant) say is Dynamic unless it promises a boundary or a convention. The rules were
written against ``recall/lifecycle/chapters.tsv``
(``pytest tests/lifecycle/test_chapters.py -s`` prints the accuracy, and that of a batch
written after the tuning).
"""

from __future__ import annotations

import re
from typing import Final

from ..user.durable import ALLERGENS, ALLERGENS_ZH, JOBS, JOBS_ZH, SURNAMES, is_durable
from .sentences import Speaker, parse_label

__all__ = [
    "CHAPTER_NAMES",
    "JOBS",
    "JOBS_ZH",
    "SURNAMES",
    "is_mood",
    "is_transient",
    "route",
    "route_utterance",
]

#: The chapters a sentence can go to.
CHAPTER_NAMES: Final = ("Bedrock", "Evolutionary", "Dynamic")

_I = re.IGNORECASE
_IM = r"(?:i'?m|i am)"
_LANGUAGES = (
    r"english|chinese|mandarin|cantonese|spanish|french|german|hindi|arabic|portuguese|"
    r"russian|japanese|korean|italian|dutch|polish|turkish|vietnamese|thai|swedish|greek|"
    r"hebrew|urdu|bengali|tamil|indonesian|malay|tagalog|ukrainian|czech|finnish|norwegian"
)
_SPAN = r"[^\n，。；,.;！？!?、]"  # characters inside one Chinese clause
_NUM_ZH = r"[\d一二三四五六七八九十两]+"


def _rules(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts), _I)


# A passing state: a mood, tiredness or an illness. Such a sentence lives in Dynamic and
# does not outlive the next promotion (see reconstruct.py).
_TRANSIENT = _rules(
    r"\b(?:frustrat\w*|annoyed|angry|upset|stressed(?: out)?|anxious|nervous|worried|"
    r"excited|thrilled|sad|depressed|exhausted|tired(?! of)|sleepy|burn(?:ed|t) out|"
    r"overwhelmed|relieved|bored|sick(?! of)|unwell|hungover|furious|scared|lonely|grumpy|"
    r"jet-?lagged|caught a cold|have a cold|a fever|the flu|headache|migraine)\b",
    r"(?<!麻)烦(?!恼的事)|郁闷|沮丧|焦虑|紧张|担心|兴奋|激动|开心|高兴|难过|伤心|生气|崩溃",
    r"累坏|好累|很累|太累|累死|疲惫|犯困|无聊|松了一口气|感冒|发烧|头疼|头痛|生病|不舒服",
    r"睡不好|失眠|压力(?:很|好|特别|太)大",
)
_QUESTION = re.compile(r"[?？][\"'”’)）]*$")
# Goals come before identity: "I want to become a staff engineer" is an aim, not a job.
_GOAL = _rules(
    r"\b(?:my|our) (?:[\w-]+ )?(?:goal|dream|ambition|aim|resolution)s?\b",
    r"\blong[- ]term\b|\bsomeday\b|\bone day\b|\bin the long run\b",
    r"\bi(?: want| hope| plan| aim| intend| wish|'d like| would like|'d love| would love) to "
    r"(?:become|be a|get better|learn|speak|run|build|start|open|buy|retire|write|finish|"
    r"save|move)\b",
    r"\bwithin (?:\w+ )?years\b|\bin the next (?:\w+ )?years\b|\bsaving (?:up )?(?:for|to)\b",
    r"\bworking towards?\b|\b(?:this|next) year\b|\bby the end of the year\b",
    r"目标|梦想|长期|将来|未来|希望以后|以后想|想成为|(?:[几两二三四五六七八九十]|\d+)年内|攒钱|存钱",
    r"岁(?:之)?前|财务自由|计划明年|打算明年",
)
_BEDROCK = _rules(
    # identity: name, age, origin, language, pronouns
    r"\bmy name is\b|\bi go by\b|\bmy pronouns\b|\b" + _IM + r" \d{1,2}(?: years old)?\b",
    r"\bi (?:just )?turned \d{2}\b|\bi was born\b|\bmy birthday\b|\bi grew up in\b",
    r"\b" + _IM + r" (?:originally )?from\b|\bmy nationality\b",
    r"\bmy (?:native|first|mother) (?:language|tongue)\b|\bfluent in\b|\bbilingual\b",
    r"\bi speak (?:" + _LANGUAGES + r")\b|\bnative (?:" + _LANGUAGES + r") speaker\b",
    # family and pets
    r"\b" + _IM + r" (?:married|divorced|engaged|widowed|a (?:single )?(?:mom|mother|dad|"
    r"father|parent))\b|\bmarried to\b",
    r"\bi have (?:a|an|one|two|three|four|\d) (?:kids?|children|sons?|daughters?|dogs?|cats?|"
    r"twins)\b|\bmy (?:wife|husband|partner|spouse|dog|cat|son|daughter|kid)(?:'s name)? is\b",
    r"\bmy (?:dog|cat|son|daughter)'s name\b",
    # health and diet
    r"\ballergic to (?:" + ALLERGENS + r")\b",
    r"\b" + _IM + r" (?:a )?(?:vegetarian|vegan|pescatarian|celiac|coeliac|diabetic|"
    r"colou?r-?blind|deaf|blind|dyslexic|autistic|pregnant|(?:lactose|gluten) intolerant)\b",
    r"\bi have (?:type [12] )?(?:diabetes|asthma|adhd|epilepsy|celiac|dyslexia|"
    r"a heart condition|high blood pressure)\b",
    r"\bi (?:can'?t|cannot|don'?t) eat (?:meat|pork|beef|gluten|dairy|nuts)\b",
    # where they live
    r"\bi (?:now |currently |still )?live in\b|\b" + _IM + r" (?:now |currently )?"
    r"(?:based|living) in\b|\bmy home(?:town)? is\b",
    r"\b(?:i|we) (?:just |recently |have |'ve )?(?:moved|relocated) to\b",
    # job
    r"\bi (?:now |currently |still )?work (?:as|at|for|in)\b",
    r"\bwork(?:s|ing)? (?:[\w-]+ ){0,3}as (?:a|an) (?:[\w-]+ ){0,3}(?:" + JOBS + r")s?\b",
    r"\b" + _IM + r" (?:now |currently |still |also )?(?:a|an) (?:[\w-]+ ){0,3}"
    r"(?:" + JOBS + r")s?\b",
    r"\bmy (?:job|role|title|profession|occupation) is\b|\bpromoted to\b",
    r"\b(?:started|got|took|accepted|landed) (?:a |my |the )?new (?:job|role|position)\b",
    r"\bi(?:'ve| have)? (?:just )?joined [A-Z]|\bi run (?:a|my own) \w+\b",
    r"\b" + _IM + r" (?:self-employed|retired|unemployed|freelancing)\b|\bquit my job\b",
    # boundaries: rules I must keep, said by the user or promised by me
    r"(?<!\bi )\bnever\b|\b(?:don'?t|do not) ever\b|\bmust not\b|\bunder no circumstances\b",
    r"^(?:please )?always\b",
    # 中文: 身份
    r"我(?:现在|已经|改)?叫|我姓|我的名字|叫我\S{1,3}就[行好]|我(?:今年)?(?:刚|已经)?满?"
    + _NUM_ZH
    + r"岁",
    r"我出生|我的生日|老家|我来自|母语|我在" + _SPAN + r"{1,6}长大|我是" + _SPAN + r"{1,3}族",
    r"我结婚|我离婚|我单身|我有(?:一|两|二|三|\d)个(?:孩子|女儿|儿子)",
    r"我(?:老公|老婆|丈夫|妻子|先生|太太)是|我养了",
    # 健康与饮食
    r"对(?:" + ALLERGENS_ZH + r")\S{0,4}过敏|我吃素|素食|糖尿病|高血压|哮喘|色盲|乳糖不耐",
    r"(?:^|[，,]|我)不吃(?:任何)?(?:肉|猪肉|牛肉|荤)",
    # 住处
    r"我(?:和|跟)?" + _SPAN + r"{0,4}(?:现在|目前|已经|一直)?(?:住在|定居)",
    r"我搬到" + _SPAN + r"{1,8}(?:已经|了)|我(?:已经|刚)搬到|我在" + _SPAN + r"{1,6}生活",
    # 工作
    r"我(?:现在|目前|也|已经)?是(?:一名|一个|一位|个)?" + _SPAN + r"{0,8}(?:" + JOBS_ZH + r")",
    r"我(?:在|于)" + _SPAN + r"{1,15}(?:工作|上班|任职|实习|做" + _SPAN + r"{1,10})",
    r"我的(?:工作|职业|岗位)是|跳槽|入职|升(?:职|任)|我(?:在读|读)(?:研|博|大)",
    r"(?:去|到|在)" + _SPAN + r"{1,15}(?:做|当)" + _SPAN + r"{0,10}(?:" + JOBS_ZH + r")",
    # 边界
    r"永远不要|永远别|永远(?:都)?用|绝对不要|绝不|千万(?:别|不要)|不许|不准|禁止|底线",
)
# "I'm Zhang Min": a capitalized name right after "I'm" (case matters here).
_NAME = re.compile(r"\b(?:I'm|I am|I’m) [A-Z][a-z]+(?: [A-Z][a-z]+){0,2}\b(?!['’]s)")
_NAME_ZH = re.compile(rf"我是[{SURNAMES}][\u4e00-\u9fff]{{1,2}}(?:[，。,.！!]|$)")
_EVOLUTIONARY = _rules(
    # preferences, values and traits
    r"\bi (?:really |also |still |now |actually |much |kind of |totally |absolutely )*"
    r"(?:prefer|like|love|enjoy|adore|hate|dislike|can'?t stand|don'?t (?:really )?like|"
    r"don'?t mind|care|value)\b",
    r"\b" + _IM + r" (?:a (?:big |huge )?fan of|not a fan of|into|allergic to)\b",
    r"\bmy favou?rite\b|\bi use\b|\bi mostly\b|\bmatters to me\b",
    r"\bi(?:'ve| have)? (?:just )?(?:switched|stopped|quit|given up|gave up)\b",
    r"\b(?:works?|is|are) (?:best|better|easier) for me\b",
    r"\b(?:a|not a) (?:morning|night|people|cat|dog|coffee|tea) person\b|\bnight owl\b",
    r"\bearly bird\b|\bintrovert|\bextrovert",
    # habits, what they learn or train for
    r"\bi (?:usually|normally|typically|generally|often|always|tend to|rarely|never|seldom)\b",
    r"\bevery (?:day|morning|evening|night|week|weekend|month|year|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday)\b|\bon (?:weekends|sundays|saturdays)\b",
    r"\bhabit\b|\broutine\b|\bin the evenings\b|\bcareer\b",
    r"\b(?:once|twice|a \w+|one \w+) a (?:day|week|night|month|year)\b",
    r"\b" + _IM + r" (?:learning|studying|teaching myself|training for)\b",
    # conventions between us
    r"\bfrom now on\b|\bfrom here on\b|\bgoing forward\b|\bin (?:the )?future\b",
    r"\bwe agreed\b|\bour (?:convention|rule|shorthand)\b|\bwhen i say\b|\blet'?s always\b",
    r"\b(?:i'll|i will) (?:always|keep)\b",
    # 偏好、习惯、约定
    r"喜欢|爱(?:喝|吃|看|听|玩|用)|最爱|偏好|讨厌|受不了|看重|在意|迷(?:[，。,]|$)|粉丝|过敏",
    r"改(?:喝|吃|用)|换成|不再|不(?:喝|吃|用)" + _SPAN + r"{0,6}了",
    r"通常|一般|平时|习惯|每(?:天|周|晚|个?月|年|个周末|周[一二三四五六日末])|总是|经常|坚持",
    r"在学|正在学|自学|备考|以后|约定|说好|意思是|明年",
)
_NEVER = _rules(r"\bnever\b|\b(?:don'?t|do not) ever\b|绝不|永远不|再也不")
_CONVENTION = _rules(
    r"\bfrom now on\b|\bgoing forward\b|\b(?:i'll|i will) always\b|\bwe agreed\b|以后|约定"
)
# A user's "never" about themselves ("I never drink coffee") is a habit, not a boundary.
_OWN_NEVER = _rules(r"\bi (?:\w+ )?never\b")


def is_mood(sentence: str) -> bool:
    """True when ``sentence`` tells a mood, tiredness or illness, whatever else it says."""
    return _TRANSIENT.search(sentence) is not None


def is_transient(sentence: str) -> bool:
    """True when ``sentence`` tells a passing mood, tiredness or illness and no durable fact
    beside it: "I'm nervous because I'm vegetarian" is a diet first (:mod:`.durable`)."""
    return is_mood(sentence) and not is_durable(sentence)


def _bedrock(speaker: Speaker, text: str) -> bool:
    own_never = speaker.role != "assistant" and _OWN_NEVER.search(text) is not None
    for m in _BEDROCK.finditer(text):
        if not (own_never and m.group().lower() == "never"):
            return True
    return _NAME.search(text) is not None or _NAME_ZH.search(text) is not None


def route_utterance(speaker: Speaker, text: str) -> str:
    """The chapter of one sentence said by ``speaker`` (see the module docstring)."""
    if speaker.role == "tool" or is_transient(text):
        return "Dynamic"
    if speaker.role == "assistant" or _QUESTION.search(text):
        # What I say, and what anyone asks, is about now, unless it sets a standing rule
        # ("I will never …", "…from now on?").
        if _NEVER.search(text) and (speaker.role == "assistant" or _bedrock(speaker, text)):
            return "Bedrock"
        return "Evolutionary" if _CONVENTION.search(text) else "Dynamic"
    if _GOAL.search(text):
        return "Evolutionary"
    if _bedrock(speaker, text) or is_durable(text, named=False):
        return "Bedrock"
    return "Evolutionary" if _EVOLUTIONARY.search(text) else "Dynamic"


def route(sentence: str) -> str:
    """The chapter a sentence belongs to: "Bedrock", "Evolutionary" or "Dynamic".

    A role label ("User: …", "Assistant: …") is read first and counts: what a tool
    returned is always Dynamic.
    """
    speaker, text = parse_label(sentence)
    return route_utterance(speaker, text)
