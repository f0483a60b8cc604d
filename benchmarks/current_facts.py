"""What is true now: a newer statement of one attribute of the user against the older one.

    .venv/bin/python benchmarks/current_facts.py [--cases en01,zh03] [--lang en|zh]
        [--data tests/data/current_facts.jsonl] [--path DIR] [--no-embed-cache]
        [--label TEXT] [--out benchmarks/results/current_facts.json]

Each case of the development set (``tests/data/current_facts.jsonl``: 64 cases, 32 English
and 32 Chinese, over ten slots: home, work, role, partner, pet, diet, transport, tools,
preference, plans) is a user (user id = case id) of one memory folder (a temp dir, or
``--path``; a user already there is deleted first). The user's history is 40 sessions, one
``update_memory`` each, one day apart from 2026-01-01 UTC, each one user message and a short
assistant reply. Two of them state the slot: the old value, then the new one (``kind``
"change": the new value replaces the old; "addition": it comes on top of it, a second pet).
The other 38 are everyday fillers (cooking, a bug, a book, the weather) that mention none of
the values. Where the two statements sit depends on the case's index in the file, mod 3:
sessions (2, 12): both promoted into the long-term article by the end; (3, 30): the old one
promoted, the new one still a short-term summary; (22, 35): both short-term (the default
capacity, 20 summaries, promotes sessions 0-19 over 40 updates). The summary tier of both
statements is checked and recorded.

Then, with ``now`` = the day after the last session where the API takes it:

- ``current_first`` (higher is better): in ``deep_recall(current_q, top_k=10)`` a hit holding
  a ``current`` token ranks above the first hit holding a ``stale`` token, or no stale hit
  comes back (for an addition: the new value is in the top 10);
- ``current_found`` (higher): a current token is in the top 10 at all (a diagnostic of
  ``current_first``: its failures are either this or a stale hit above the current one);
- ``stale_first`` (lower): the top hit holds a stale token and no current token;
- ``block_current`` (higher) / ``block_stale`` (lower): ``get_relevant_memories(current_q)``
  holds a current / a stale token;
- ``history_found`` (higher, changes): a stale token is in the top 10 of ``history_q``: the
  old value must stay findable when asked for;
- ``article_stale`` (lower, changes): the long-term article (all three chapters) holds a
  stale token;
- ``block_keeps_old`` and ``also_found`` (higher, additions): the memory block / the top 10
  of ``current_q`` still hold the earlier value (``also_current``), which is still true.

A token matches case-insensitively, as a whole word for Latin text ("Tom" is not in
"tomorrow"), as a substring for Chinese. The script refuses data whose tokens break the
set's rules (a current token in the old message, a stale one in the new, any token in a
filler or an assistant reply). Prints the rates overall, per kind, per language and per
position group, then the failing case ids per metric; writes everything, per-case details
included, to ``--out``.

Embeddings are memoized by text within the run (``--no-embed-cache`` turns it off): the
fillers repeat across cases, and a text's vector does not depend on the user. The figures
are the same either way (up to float rounding between batches); the run is several times
shorter on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
import numpy.typing as npt

import recall
from recall.index.embed import CompositeEmbedder, Embedder
from recall.lifecycle.tiers import archive_id

SESSIONS = 40
START = datetime(2026, 1, 1, tzinfo=UTC)
NOW = START + timedelta(days=SESSIONS)  # the day after the last session
TOP_K = 10

#: Where the old and the new statement go, by case index mod 3 (0-based session numbers).
POSITIONS = [(2, 12), (3, 30), (22, 35)]
GROUPS = ["promoted/promoted", "promoted/short-term", "short/short"]

#: (metric, higher is better, kinds it applies to)
METRICS: list[tuple[str, bool, tuple[str, ...]]] = [
    ("current_first", True, ("change", "addition")),
    ("current_found", True, ("change", "addition")),
    ("stale_first", False, ("change",)),
    ("block_current", True, ("change", "addition")),
    ("block_stale", False, ("change",)),
    ("history_found", True, ("change",)),
    ("article_stale", False, ("change",)),
    ("block_keeps_old", True, ("addition",)),
    ("also_found", True, ("addition",)),
]

#: The assistant's reply to a statement: a plain acknowledgement, never a value.
ACKS = {
    "en": [
        "Got it, thanks for telling me.",
        "Noted, I'll keep that in mind.",
        "Thanks for the update!",
        "Okay, good to know.",
    ],
    "zh": ["好的，我记住了。", "明白了，谢谢告诉我。", "收到，我会记下来的。", "好的，知道了。"],
}

#: Everyday exchanges that mention none of the set's values (checked at load).
FILLERS: dict[str, list[tuple[str, str]]] = {
    "en": [
        (
            "How long should I boil eggs if I want the yolk still a bit runny?",
            "About six and a half minutes from boiling water, then straight into cold water.",
        ),
        (
            "My sourdough came out really dense again. Any idea what I'm doing wrong?",
            "Usually the starter isn't active enough; feed it and use it at its peak.",
        ),
        (
            "Can you explain what a race condition is in simple terms?",
            "Two threads touch the same data and the result depends on who gets there first.",
        ),
        (
            "There's a bug at work where a date shows up one day off for some people.",
            "That smells like a timezone issue: store UTC and convert only when displaying.",
        ),
        (
            "I just finished Project Hail Mary, what should I read next?",
            "If you liked the science puzzles, try The Martian or Children of Time.",
        ),
        (
            "It's been raining nonstop for a week here, I'm going a bit stir crazy.",
            "A week of grey skies is rough; even a short walk between showers helps.",
        ),
        (
            "What's a good stretch for a stiff lower back after sitting all day?",
            "Try a knees-to-chest stretch and a gentle cat-cow, a minute each.",
        ),
        (
            "How do I get rid of fruit flies in the kitchen?",
            "A small dish of vinegar with a drop of dish soap traps them within a day.",
        ),
        (
            "Can you recommend a board game for four people that isn't too long?",
            "Ticket to Ride or Azul both play in under an hour and are easy to teach.",
        ),
        (
            "My tomato plants have yellow leaves at the bottom. Should I worry?",
            "Lower leaves yellowing is common; check watering and pinch them off.",
        ),
        (
            "What's the difference between baking soda and baking powder?",
            "Baking powder already contains the acid; baking soda needs one in the recipe.",
        ),
        (
            "Our unit tests pass locally but fail in CI, any common reasons?",
            "Different environment variables, test order, or a dependency version drift.",
        ),
        (
            "I watched a documentary about octopuses last night, they're so smart.",
            "They really are: they solve puzzles and can even recognise individual people.",
        ),
        (
            "How do I politely decline an invitation to a party?",
            "Thank them warmly, say you can't make it, and suggest meeting another time.",
        ),
        (
            "Why does my phone battery drain so fast in cold weather?",
            "Cold slows the battery's reactions, so it reports less charge than it has.",
        ),
        (
            "Can you help me write a birthday message for my grandmother?",
            "Sure: wish her a year as warm as her hugs, and thank her for everything.",
        ),
        (
            "What's a quick way to learn keyboard shortcuts?",
            "Pick three a week, put them on a sticky note, and force yourself to use them.",
        ),
        (
            "The wifi keeps dropping in the evenings, what could cause that?",
            "Channel congestion from the neighbours; try switching the router's channel.",
        ),
        (
            "How many minutes should I roast broccoli in the oven?",
            "About twenty minutes at a hot oven, turning once halfway.",
        ),
        (
            "I keep procrastinating on my tax paperwork. Any tricks?",
            "Set a timer for twenty-five minutes and only gather the documents first.",
        ),
        (
            "What's the plot of Pride and Prejudice in a nutshell?",
            "Elizabeth and Darcy misjudge each other, then slowly learn better.",
        ),
        (
            "My code review got a comment saying my function is too long. How do I split it?",
            "Pull each step with its own purpose into a small named helper.",
        ),
        (
            "Is it normal for my sneakers to squeak after washing them?",
            "Yes, trapped moisture; let them dry fully and dust the insole with powder.",
        ),
        (
            "Can you suggest a name for a neighbourhood book club?",
            "How about The Dog-Eared Pages or Chapter and Chat?",
        ),
        (
            "What's a good way to remember people's names at events?",
            "Repeat the name right away and link it to something they told you.",
        ),
        (
            "How do you make a basic vinaigrette?",
            "Three parts oil to one part vinegar, a little mustard, salt, and whisk.",
        ),
        (
            "I'm trying to fix a memory leak in a long-running script.",
            "Take heap snapshots a few minutes apart and compare which objects grow.",
        ),
        (
            "The sunset was amazing today, the whole sky went pink.",
            "Those evenings are the best; dust or thin clouds make the colours stronger.",
        ),
        (
            "How often should I water a snake plant?",
            "Rarely: every two to three weeks, when the soil is completely dry.",
        ),
        (
            "What's the rule for the Oxford comma?",
            "It's the comma before 'and' in a list; style guides disagree on it.",
        ),
        (
            "My neighbour's kids practice drums every afternoon, it's driving me nuts.",
            "A friendly chat about timing often works better than a complaint.",
        ),
        (
            "Can you explain compound interest with a quick example?",
            "On 100 at 5%, year one earns 5, year two earns 5.25 because interest earns too.",
        ),
        (
            "How do I stop my glasses from fogging up with a mask on?",
            "Pinch the mask's nose wire tight and wash the lenses with a drop of soap.",
        ),
        (
            "What's a fun science experiment to do with a ten-year-old?",
            "Make a lava lamp with oil, water, food colouring and a fizzy tablet.",
        ),
        (
            "I burnt the rice at the bottom of the pot, how do I clean it?",
            "Soak it with hot water and a spoon of baking soda, then scrape gently.",
        ),
        (
            "Why do my houseplants lean toward the window?",
            "They grow toward the light; rotate the pot a quarter turn every week.",
        ),
        (
            "Any tips for a job interview presentation tomorrow?",
            "Open with the conclusion, keep slides sparse, and rehearse it out loud twice.",
        ),
        (
            "What's a good podcast about history?",
            "Try The Rest Is History or Hardcore History for long deep dives.",
        ),
        (
            "My spreadsheet formula returns a circular reference error.",
            "A cell refers back to itself through a chain; trace precedents to find it.",
        ),
        (
            "It snowed overnight and everything looks so quiet this morning.",
            "Fresh snow absorbs sound, which is why everything feels so hushed.",
        ),
    ],
    "zh": [
        (
            "煮溏心蛋要煮几分钟比较合适？",
            "水开后放蛋，大概六分半钟，捞出来马上过冷水。",
        ),
        (
            "我做的馒头总是发不起来，是什么原因？",
            "多半是酵母失活或者面团温度太低，放在温暖的地方再醒一会儿。",
        ),
        (
            "能用简单的话解释一下什么是死锁吗？",
            "两个线程各拿着一把锁，又都在等对方的锁，于是谁也动不了。",
        ),
        (
            "公司系统有个bug，部分用户看到的日期差了一天。",
            "很可能是时区问题，存储统一用UTC，显示时再转换。",
        ),
        (
            "最近看完了《三体》，还有什么类似的书推荐吗？",
            "可以试试《球状闪电》或者特德·姜的短篇集。",
        ),
        (
            "这边连着下了一周的雨，衣服都晒不干。",
            "梅雨天确实烦人，可以用除湿机或者烘干机应急。",
        ),
        (
            "久坐之后腰很酸，有什么简单的拉伸动作？",
            "试试抱膝拉伸和猫牛式，每个做一分钟。",
        ),
        (
            "厨房里老有小飞虫，怎么办？",
            "放一小碟醋加一滴洗洁精，一两天就能抓住不少。",
        ),
        (
            "有没有适合四个人玩、时间不太长的桌游？",
            "《璀璨宝石》或者《花砖物语》都不错，一小时内能玩完。",
        ),
        (
            "阳台上的绿萝叶子发黄了，要紧吗？",
            "下面的老叶发黄很常见，检查一下是不是浇水太多。",
        ),
        (
            "小苏打和泡打粉有什么区别？",
            "泡打粉自带酸性成分，小苏打需要配方里有酸才会起作用。",
        ),
        (
            "单元测试本地能过，一到流水线就失败，常见原因有哪些？",
            "环境变量不同、测试顺序依赖，或者依赖版本不一致。",
        ),
        (
            "昨晚看了一部讲章鱼的纪录片，它们太聪明了。",
            "确实，章鱼会开罐子，还能认出不同的人。",
        ),
        (
            "朋友请我参加聚会，我不想去，怎么拒绝比较礼貌？",
            "先真诚感谢，说明这次去不了，再约下次见面。",
        ),
        (
            "天冷的时候手机为什么掉电特别快？",
            "低温会减慢电池里的化学反应，显示的电量就偏低。",
        ),
        (
            "帮我想一段给奶奶的生日祝福吧。",
            "祝奶奶身体健康、福寿安康，谢谢您一直以来的疼爱。",
        ),
        (
            "有什么快速记住快捷键的方法？",
            "每周只练三个，贴在显示器边上，强迫自己用。",
        ),
        (
            "家里的无线网一到晚上就断，可能是什么原因？",
            "可能是邻居的信号太多造成干扰，试试换个信道。",
        ),
        (
            "烤西兰花要烤多久？",
            "烤箱预热后大约二十分钟，中途翻一次面。",
        ),
        (
            "我总是拖着不整理报销单据，有什么办法？",
            "定一个二十五分钟的计时器，先只把单据找齐。",
        ),
        (
            "《红楼梦》主要讲了什么？",
            "以贾府的兴衰为背景，写宝玉、黛玉和宝钗之间的故事。",
        ),
        (
            "代码评审时有人说我的函数太长了，怎么拆比较好？",
            "把每个独立的步骤抽成一个有名字的小函数。",
        ),
        (
            "运动鞋洗完以后走路吱吱响，正常吗？",
            "一般是里面还有水汽，彻底晾干后在鞋垫上撒点爽身粉。",
        ),
        (
            "小区读书会想起个名字，有什么建议？",
            "可以叫“书页之间”或者“周末读书会”。",
        ),
        (
            "参加活动时总记不住别人的名字，怎么办？",
            "听到名字马上重复一遍，再把它和对方说的某件事联系起来。",
        ),
        (
            "凉拌黄瓜怎么调汁比较好吃？",
            "蒜末、生抽、香醋、一点糖和香油，拌匀腌十分钟。",
        ),
        (
            "我在排查一个长时间运行的脚本的内存泄漏。",
            "隔几分钟抓一次堆快照，对比哪些对象一直在增长。",
        ),
        (
            "今天的晚霞太美了，整片天都是粉色的。",
            "空气里有薄云或者灰尘的时候，晚霞的颜色会特别浓。",
        ),
        (
            "虎皮兰多久浇一次水？",
            "很少浇，两三周一次，等土完全干透再浇。",
        ),
        (
            "“的、地、得”到底怎么区分？",
            "名词前用“的”，动词前用“地”，动词后补语前用“得”。",
        ),
        (
            "楼上的小孩每天下午练钢琴，有点吵。",
            "可以友好地沟通一下时间段，通常比直接投诉效果好。",
        ),
        (
            "能举个例子解释一下复利吗？",
            "一百块按百分之五，第一年赚五块，第二年连利息一起生息，赚五块二毛五。",
        ),
        (
            "戴口罩的时候眼镜老起雾，有什么办法？",
            "把口罩鼻梁条压紧，镜片用一点洗手液洗一下。",
        ),
        (
            "有什么适合和十岁小孩一起做的科学小实验？",
            "用油、水、色素和泡腾片做一个熔岩灯。",
        ),
        (
            "锅底的米饭烧糊了，怎么清洗？",
            "倒热水加一勺小苏打泡一会儿，再轻轻刮掉。",
        ),
        (
            "家里的盆栽为什么都往窗户那边歪？",
            "植物向光生长，每周把花盆转四分之一圈就好。",
        ),
        (
            "明天面试要做一个汇报，有什么建议？",
            "先讲结论，幻灯片少放字，提前大声练两遍。",
        ),
        (
            "有什么好听的历史类播客推荐？",
            "可以听听《忽左忽右》或者《文化有限》。",
        ),
        (
            "表格里的公式提示循环引用，怎么回事？",
            "某个单元格通过一串引用又指回了自己，用追踪引用找一下。",
        ),
        (
            "昨晚下了一夜的雪，早上特别安静。",
            "新雪会吸收声音，所以下雪后的早晨格外安静。",
        ),
    ],
}


def _git() -> str:
    try:
        cmd = ["git", "rev-parse", "--short", "HEAD"]
        out = subprocess.run(cmd, capture_output=True, check=False)
        return out.stdout.decode().strip()
    except OSError:
        return ""


def has_token(text: str, token: str) -> bool:
    """``token`` in ``text``: case-insensitive; a whole word when it is Latin text."""
    if token.isascii():
        pattern = r"(?<![A-Za-z0-9])" + re.escape(token) + r"(?![A-Za-z0-9])"
        return re.search(pattern, text, re.IGNORECASE) is not None
    return token.lower() in text.lower()


def has_any(text: str, tokens: Sequence[str]) -> bool:
    return any(has_token(text, t) for t in tokens)


def check_case(case: dict[str, Any]) -> list[str]:
    """The data rules a case breaks (none: an empty list)."""
    errors: list[str] = []
    old, new = case["old"], case["new"]
    before = case["stale"] if case["kind"] == "change" else case.get("also_current", [])
    if case["kind"] not in ("change", "addition"):
        errors.append(f"unknown kind {case['kind']!r}")
    if case["kind"] == "addition" and (case["stale"] or not before):
        errors.append("an addition has no stale tokens and some also_current tokens")
    if not case["current"] or not before:
        errors.append("no tokens")
    for t in case["current"]:
        if not has_token(new, t) or has_token(old, t):
            errors.append(f"current token {t!r} must be in the new message only")
    for t in before:
        if not has_token(old, t) or has_token(new, t):
            errors.append(f"old token {t!r} must be in the old message only")
    others = [text for pair in FILLERS[case["lang"]] for text in pair] + ACKS[case["lang"]]
    for t in [*case["current"], *before]:
        clash = [o for o in others if has_token(o, t)]
        if clash:
            errors.append(f"token {t!r} in a filler or reply: {clash[0]!r}")
    return errors


Messages = list[dict[str, str]]


def sessions(case: dict[str, Any], index: int) -> tuple[list[Messages], tuple[int, int]]:
    """The case's 40 sessions (OpenAI-format messages) and where the two statements sit."""
    lang = case["lang"]
    pool = FILLERS[lang]
    at_old, at_new = POSITIONS[index % 3]
    start = (index * 7) % len(pool)
    fillers = [pool[(start + j) % len(pool)] for j in range(SESSIONS - 2)]
    acks = ACKS[lang]
    out: list[Messages] = []
    for s in range(SESSIONS):
        if s == at_old:
            user, reply = case["old"], acks[index % len(acks)]
        elif s == at_new:
            user, reply = case["new"], acks[(index + 1) % len(acks)]
        else:
            user, reply = fillers.pop(0)
        out.append([{"role": "user", "content": user}, {"role": "assistant", "content": reply}])
    return out, (at_old, at_new)


class _Memo:
    """One embedding model with its vectors memoized by text, for this run only."""

    def __init__(self, part: Embedder) -> None:
        self.part = part
        self.id = part.id
        self.dimension = part.dimension
        self.docs: dict[str, npt.NDArray[np.float32]] = {}
        self.queries: dict[str, npt.NDArray[np.float32]] = {}

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        missing = list(dict.fromkeys(t for t in texts if t not in self.docs))
        if missing:
            for text, row in zip(missing, self.part.embed_documents(missing), strict=True):
                self.docs[text] = row
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([self.docs[t] for t in texts]).astype(np.float32)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        if text not in self.queries:
            self.queries[text] = self.part.embed_query(text)
        return self.queries[text]


def memoize(embedder: Embedder) -> bool:
    """Memoize each model of the (process-wide) composite embedder; False if not one."""
    if not isinstance(embedder, CompositeEmbedder):
        return False
    embedder.parts = [p if isinstance(p, _Memo) else _Memo(p) for p in embedder.parts]
    return True


def _first(hits: Sequence[recall.Hit], tokens: Sequence[str]) -> int | None:
    """1-based rank of the first hit holding one of ``tokens``."""
    for rank, h in enumerate(hits, 1):
        if has_any(h.text, tokens):
            return rank
    return None


def run_case(mem: recall.Memory, case: dict[str, Any], index: int) -> dict[str, Any]:
    """Replay the case's 40 sessions for its user, then ask; the figures of one case."""
    uid = case["id"]
    mem.delete_user(uid)  # a clean replay in a --path folder used before
    convo, (at_old, at_new) = sessions(case, index)
    summary_ids: dict[int, str] = {}
    t0 = time.perf_counter()
    for s, messages in enumerate(convo):
        res = mem.update_memory(messages, user_id=uid, at=START + timedelta(days=s))
        if s in (at_old, at_new):
            summary_ids[s] = res.summary_id
    t1 = time.perf_counter()
    kinds = {r.id: r.kind for r in mem.records(uid)}

    def tier(s: int) -> str:  # a promoted summary is archived under a new id
        sid = summary_ids[s]  # "" when nothing was kept (a turn read as private)
        return (kinds.get(sid) or kinds.get(archive_id(sid)) or "missing") if sid else "none"

    cur, stale = case["current"], case["stale"]
    also = case.get("also_current", [])
    hits = mem.deep_recall(case["current_q"], user_id=uid, top_k=TOP_K, now=NOW)
    block = mem.get_relevant_memories(case["current_q"], user_id=uid)
    article = mem.long_term(uid).render()
    rank_cur, rank_stale, rank_also = _first(hits, cur), _first(hits, stale), _first(hits, also)
    top = hits[0].text if hits else ""
    m: dict[str, bool | None] = {
        "current_first": rank_cur is not None and (rank_stale is None or rank_cur < rank_stale),
        "current_found": rank_cur is not None,
        "block_current": has_any(block, cur),
    }
    history: list[dict[str, Any]] = []
    if case["kind"] == "change":
        hist = mem.deep_recall(case["history_q"], user_id=uid, top_k=TOP_K, now=NOW)
        history = [{"kind": h.kind, "text": h.text[:160]} for h in hist[:3]]
        m["stale_first"] = has_any(top, stale) and not has_any(top, cur)
        m["block_stale"] = has_any(block, stale)
        m["history_found"] = _first(hist, stale) is not None
        m["article_stale"] = has_any(article, stale)
    else:
        m["block_keeps_old"] = has_any(block, also)
        m["also_found"] = rank_also is not None
    return {
        "id": uid,
        "lang": case["lang"],
        "slot": case["slot"],
        "kind": case["kind"],
        "group": GROUPS[index % 3],
        "sessions": {"old": at_old, "new": at_new},
        "tier": {
            "old": tier(at_old),
            "new": tier(at_new),
        },
        "metrics": m,
        "hits": len(hits),
        "rank": {"current": rank_cur, "stale": rank_stale, "also_current": rank_also},
        "top_hits": [{"kind": h.kind, "text": h.text[:160]} for h in hits[:3]],
        "history_top_hits": history,
        "block_chars": len(block),
        "update_s": round(t1 - t0, 2),
        "query_s": round(time.perf_counter() - t1, 2),
    }


def rates(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, float | int]]:
    """Per metric: the share of the rows it applies to where it holds, and their count."""
    out: dict[str, dict[str, float | int]] = {}
    for name, _, _ in METRICS:
        vals = [r["metrics"][name] for r in rows if r["metrics"].get(name) is not None]
        if vals:
            out[name] = {"rate": sum(vals) / len(vals), "n": len(vals)}
    return out


def summary(results: Sequence[dict[str, Any]]) -> dict[str, dict[str, dict[str, float | int]]]:
    """Rates overall, per kind, per language and per position group (empty ones left out)."""
    splits: list[tuple[str, str, str]] = [("all", "", "")]
    splits += [(k, "kind", k) for k in ("change", "addition")]
    splits += [(lang, "lang", lang) for lang in ("en", "zh")]
    splits += [(g, "group", g) for g in GROUPS]
    out = {}
    for label, field, value in splits:
        rows = [r for r in results if not field or r[field] == value]
        if rows:
            out[label] = rates(rows)
    return out


def failures(results: Sequence[dict[str, Any]]) -> dict[str, list[str]]:
    """Per metric, the ids of the cases where it went the wrong way."""
    out: dict[str, list[str]] = {}
    for name, higher, _ in METRICS:
        bad = [
            r["id"]
            for r in results
            if r["metrics"].get(name) is not None and r["metrics"][name] != higher
        ]
        out[name] = bad
    return out


def print_table(table: dict[str, dict[str, dict[str, float | int]]]) -> None:
    names = [n for n, _, _ in METRICS]
    heads = [f"{n} {'↑' if h else '↓'}" for n, h, _ in METRICS]
    widths = [max(len(h), 9) for h in heads]
    print(f"{'':<20}" + "  ".join(f"{h:>{w}}" for h, w in zip(heads, widths, strict=True)))
    for label, row in table.items():
        cells = []
        for name, w in zip(names, widths, strict=True):
            v = row.get(name)
            cell = f"{100 * v['rate']:.0f}% ({v['n']})" if v else "-"
            cells.append(f"{cell:>{w}}")
        print(f"{label:<20}" + "  ".join(cells))


def _dirty() -> list[str]:
    """Tracked files with uncommitted changes: the code measured is not HEAD's alone."""
    try:
        cmd = ["git", "status", "--porcelain", "--untracked-files=no"]
        out = subprocess.run(cmd, capture_output=True, check=False)
        return [line[3:] for line in out.stdout.decode().splitlines()]
    except OSError:
        return []


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", default="tests/data/current_facts.jsonl")
    ap.add_argument("--cases", default="", help="comma-separated case ids (default: all)")
    ap.add_argument("--lang", choices=["en", "zh"], help="only the cases of this language")
    ap.add_argument("--path", default="", help="memory folder (default: a temp dir)")
    ap.add_argument("--no-embed-cache", action="store_true", help="embed every text anew")
    ap.add_argument("--label", default="")
    ap.add_argument("--out", default="benchmarks/results/current_facts.json")
    args = ap.parse_args()

    lines = Path(args.data).read_text(encoding="utf-8").splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    bad = {c["id"]: e for c in cases if (e := check_case(c))}
    if bad:
        raise SystemExit("data errors:\n" + json.dumps(bad, indent=1, ensure_ascii=False))
    wanted = {c.strip() for c in args.cases.split(",") if c.strip()}
    unknown = wanted - {c["id"] for c in cases}
    if unknown:
        raise SystemExit(f"unknown case ids: {sorted(unknown)}")
    # The index in the file sets the positions, so a subset runs each case as the full set does.
    chosen = [
        (i, c)
        for i, c in enumerate(cases)
        if (not wanted or c["id"] in wanted) and (not args.lang or c["lang"] == args.lang)
    ]
    if not chosen:
        raise SystemExit("no case selected")

    commit, dirty = _git(), _dirty()  # at the start: others may commit during the run
    t0 = time.perf_counter()
    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.path) if args.path else Path(tmp) / "memory"
        settings = recall.Settings(path=path, llm_model=None)
        with recall.open(settings=settings) as mem:
            cached = False if args.no_embed_cache else memoize(mem.embedder())
            results = []
            for n, (i, case) in enumerate(chosen, 1):
                r = run_case(mem, case, i)
                results.append(r)
                wrong = [k for k, h, _ in METRICS if r["metrics"].get(k) not in (None, h)]
                print(
                    f"[{n:>2}/{len(chosen)}] {r['id']} {r['group']:<19} "
                    f"tiers {r['tier']['old']}/{r['tier']['new']}  "
                    f"{r['update_s'] + r['query_s']:.1f}s  wrong: {', '.join(wrong) or '-'}",
                    flush=True,
                )
    elapsed = time.perf_counter() - t0

    table = summary(results)
    fails = failures(results)
    print(f"\n{len(results)} cases, top_k {TOP_K}; rate (cases it applies to)")
    print_table(table)
    print("\nfailing cases per metric (the wrong way: ↑ false, ↓ true)")
    for name, ids in fails.items():
        print(f"  {name:<16} {len(ids):>2}  {' '.join(ids)}")
    expected = {"promoted/promoted": ("archive", "archive"), "short/short": ("short_term",) * 2}
    expected["promoted/short-term"] = ("archive", "short_term")
    off = [r["id"] for r in results if (r["tier"]["old"], r["tier"]["new"]) != expected[r["group"]]]
    if off:
        print(f"\nstatements not in their group's tiers: {' '.join(off)}")
    print(f"\n{elapsed:.0f}s ({elapsed / len(results):.1f}s a case), embed cache {cached}")

    code = Path(recall.__file__).resolve().parent
    doc = {
        "label": args.label,
        "git": commit,
        "recall": str(code),
        "dirty": dirty if code == Path("recall").resolve() else [],
        "data": args.data,
        "cases": len(results),
        "sessions": SESSIONS,
        "top_k": TOP_K,
        "now": NOW.isoformat(),
        "positions": dict(zip(GROUPS, POSITIONS, strict=True)),
        "settings": {
            "short_term_capacity": settings.lifecycle.short_term_capacity,
            "promote_count": settings.lifecycle.promote_count,
            "llm_model": settings.llm.model,
        },
        "embed_cache": cached,
        "elapsed_s": round(elapsed, 1),
        "load_avg_before": round(load0, 2),
        "tiers_off": off,
        "summary": table,
        "failing": fails,
        "results": results,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
