"""A seeded synthetic benchmark: multi-session conversations with planted facts.

Each user is one conversation between the user and the assistant: ``sessions`` sessions of
``turns`` turns, a day apart, indexed like LoCoMo turns (``"(date) speaker: text"``).
Most turns are small talk drawn from templates whose slots share vocabulary with the facts
(cities, people, foods), so that keywords alone do not give the answer away. Facts are
planted at seeded positions; every fact has a question whose evidence is known exactly
(the turn that states it). Some facts come in pairs about one person, with a question
that needs both turns (category ``multi``). English and Chinese (``lang="en"|"zh"``).
Everything is a pure function of ``seed``: the same call gives the same dataset.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Literal

from .data import Dataset

__all__ = ["synthetic", "synthetic_scale"]

Lang = Literal["en", "zh"]


def _w(words: str) -> list[str]:
    """A word list written as one string (keeps the vocabularies readable)."""
    return words.split()


_EN = {
    "first": _w(
        "Anna Ben Clara David Elena Farid Grace Hiro Ines Jonas Kemal Lena Marco "
        "Nadia Omar Priya Quentin Rosa Samir Tara Umar Vera Wei Xenia Yusuf Zoe"
    ),
    "last": _w(
        "Berg Costa Diaz Engel Fischer Garcia Haas Ito Jensen Kowalski Lopez "
        "Meyer Novak Okafor Petrov Rossi Sato Tanaka Urban Vogel Weber Young Zhou"
    ),
    "city": _w(
        "Lisbon Osaka Denver Nairobi Krakow Lyon Porto Seville Tallinn Quebec "
        "Hanoi Bergen Cusco Dublin Genoa Malmo Perth Tbilisi Valencia Zagreb"
    ),
    "pet": ["cat", "dog", "parrot", "rabbit", "turtle", "hamster", "ferret", "goldfish"],
    "petname": _w("Biscuit Pepper Mochi Waffles Luna Ziggy Noodle Pixel Rusty Clover"),
    "job": _w("nurse architect pilot baker lawyer chemist teacher plumber editor dentist"),
    "hobby": _w("pottery salsa climbing chess sailing archery fencing origami yoga piano"),
    "food": _w("ramen tacos paella curry dumplings lasagna falafel sushi pho risotto"),
    "lang": _w("Portuguese Korean Swahili Greek Turkish Dutch Polish Hindi Finnish Thai"),
    "day": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
}
_EN_FACTS = [
    ("My cousin {p} just moved to {city} for a new job.", "Which city did {p} relocate to?"),
    ("We finally adopted a {pet} and we named it {petname}.", "What is the name of our new {pet}?"),
    (
        "I signed up for {hobby} lessons every {day} evening.",
        "Which evening are my {hobby} lessons?",
    ),
    ("{p} told me she is training to become a {job}.", "What profession is {p} preparing for?"),
    ("I have been studying {lang} with an app for three weeks.", "Which language am I learning?"),
    (
        "The best dinner of the trip was the {food} in {city}.",
        "What was the best meal on the trip?",
    ),
]
_EN_PAIR = (
    "{p} works as a {job} at the hospital.",
    "{p} spends every weekend doing {hobby}.",
    "What is {p}'s job and what does {p} do on weekends?",
)
_EN_SMALL = [
    "Did you see the news about {city} this morning?",
    "I had {food} for lunch again, it never gets old.",
    "The weather has been strange all week.",
    "{p} sent me a funny video yesterday.",
    "I am so tired, work was a lot today.",
    "Do you think I should repaint the kitchen?",
    "My neighbour's {pet} kept barking all night.",
    "I read an article about {job}s working long shifts.",
    "Let's talk about something else, I need a break.",
    "I might watch a movie on {day} if I have time.",
    "Someone at the gym was talking about {hobby}.",
    "Traffic to {city} airport was terrible for {p}.",
]
_ZH = {
    "first": _w("伟 芳 娜 敏 静 强 磊 军 洋 勇 艳 杰 娟 涛 明 超 秀英 霞 平 刚"),
    "last": _w("王 李 张 刘 陈 杨 赵 黄 周 吴 徐 孙 胡 朱 高 林 何 郭 马 罗"),
    "city": _w("成都 西安 厦门 青岛 昆明 大连 苏州 长沙 哈尔滨 桂林 拉萨 珠海 洛阳 三亚"),
    "pet": ["猫", "狗", "鹦鹉", "兔子", "乌龟", "仓鼠"],
    "petname": ["团子", "豆豆", "年糕", "奶茶", "可乐", "布丁", "饺子", "芝麻"],
    "job": ["护士", "建筑师", "飞行员", "面包师", "律师", "化学家", "老师", "编辑", "牙医", "会计"],
    "hobby": ["陶艺", "萨尔萨舞", "攀岩", "围棋", "帆船", "射箭", "击剑", "书法", "瑜伽", "钢琴"],
    "food": _w("火锅 饺子 烤鸭 麻辣烫 小笼包 酸菜鱼 牛肉面 肠粉 凉皮 烧烤"),
    "lang": ["葡萄牙语", "韩语", "希腊语", "土耳其语", "荷兰语", "波兰语", "泰语", "芬兰语"],
    "day": ["周一", "周二", "周三", "周四", "周五", "周六", "周日"],
}
_ZH_FACTS = [
    ("我表哥{p}为了新工作搬到了{city}。", "{p}搬去了哪个城市？"),
    ("我们终于领养了一只{pet}，给它取名叫{petname}。", "我们新养的{pet}叫什么名字？"),
    ("我报了{hobby}课，每个{day}晚上上课。", "我的{hobby}课在哪天晚上？"),
    ("{p}告诉我她正在培训当{job}。", "{p}在准备从事什么职业？"),
    ("我用一个应用学{lang}已经三个星期了。", "我在学哪种语言？"),
    ("这次旅行最好吃的是{city}的{food}。", "旅行中哪一顿饭最好吃？"),
]
_ZH_PAIR = ("{p}在医院当{job}。", "{p}每个周末都去{hobby}。", "{p}做什么工作，周末做什么？")
_ZH_SMALL = [
    "你看到今天早上关于{city}的新闻了吗？",
    "我午饭又吃了{food}，一直吃不腻。",
    "这个星期天气很奇怪。",
    "{p}昨天给我发了一个搞笑视频。",
    "今天工作好累啊。",
    "你觉得我应该重新粉刷厨房吗？",
    "邻居家的{pet}叫了一整晚。",
    "我看了一篇关于{job}加班的文章。",
    "换个话题吧，我需要休息一下。",
    "如果有时间，我{day}可能去看电影。",
    "健身房有人在聊{hobby}。",
    "{p}去{city}机场的路上堵得厉害。",
]
_REPLIES = {
    "en": ["Oh really?", "That sounds great!", "Tell me more.", "I see.", "Nice!"],
    "zh": ["真的吗？", "听起来不错！", "多说一点。", "我明白了。", "太好了！"],
}


def _fill(
    template: str,
    vocab: dict[str, list[str]],
    rng: random.Random,
    lang: Lang,
    slots: dict[str, str] | None = None,
) -> tuple[str, dict[str, str]]:
    values = dict(slots or {})
    for key in ("city", "pet", "petname", "job", "hobby", "food", "lang", "day"):
        values.setdefault(key, rng.choice(vocab[key]))
    if "p" not in values:
        first, last = rng.choice(vocab["first"]), rng.choice(vocab["last"])
        values["p"] = f"{last}{first}" if lang == "zh" else f"{first} {last}"
    return template.format(**values), values


def _conversation(
    ds: Dataset,
    user: str,
    lang: Lang,
    sessions: int,
    turns: int,
    facts: int,
    rng: random.Random,
    start: datetime,
) -> None:
    vocab, small = (_ZH, _ZH_SMALL) if lang == "zh" else (_EN, _EN_SMALL)
    plain, pair = (_ZH_FACTS, _ZH_PAIR) if lang == "zh" else (_EN_FACTS, _EN_PAIR)
    # User turns are the even ones; facts are only ever stated by the user.
    slots = [(s, t) for s in range(1, sessions + 1) for t in range(1, turns + 1, 2)]
    n_pairs = min(facts // 3, len(slots) // 4)
    n_plain = min(facts - 2 * n_pairs, len(plain), len(slots) - 2 * n_pairs)
    chosen = rng.sample(slots, n_plain + 2 * n_pairs)
    planted: dict[tuple[int, int], str] = {}
    questions: list[tuple[str, list[tuple[int, int]], str]] = []
    for i, (tmpl, q) in enumerate(rng.sample(plain, n_plain)):
        text, values = _fill(tmpl, vocab, rng, lang)
        planted[chosen[i]] = text
        questions.append((q.format(**values), [chosen[i]], "single"))
    for j in range(n_pairs):
        a, b = chosen[n_plain + 2 * j], chosen[n_plain + 2 * j + 1]
        text_a, values = _fill(pair[0], vocab, rng, lang)
        planted[a] = text_a
        planted[b] = _fill(pair[1], vocab, rng, lang, values)[0]
        questions.append((pair[2].format(**values), sorted([a, b]), "multi"))
    speakers = ("我", "助手") if lang == "zh" else ("User", "Assistant")
    for s in range(1, sessions + 1):
        when = start + timedelta(days=s - 1)
        date = when.strftime("%Y-%m-%d %H:%M")
        for t in range(1, turns + 1):
            if (s, t) in planted:
                text = planted[(s, t)]
            elif t % 2:
                text = _fill(rng.choice(small), vocab, rng, lang)[0]
            else:
                text = rng.choice(_REPLIES[lang])
            ds.corpus[f"{user}/D{s}:{t}"] = {
                "text": f"({date}) {speakers[(t + 1) % 2]}: {text}",
                "user": user,
                "created_at": when + timedelta(minutes=t),
            }
    for i, (question, evidence, category) in enumerate(questions):
        qid = f"{user}/q{i}"
        ds.queries[qid] = question
        ds.query_meta[qid] = {"user": user, "category": f"{lang}-{category}", "lang": lang}
        ds.qrels[qid] = {f"{user}/D{s}:{t}": 1 for s, t in evidence}


def synthetic(
    *,
    users: int = 4,
    sessions: int = 6,
    turns: int = 20,
    facts: int = 6,
    langs: tuple[Lang, ...] = ("en", "zh"),
    seed: int = 0,
) -> Dataset:
    """``users`` conversations per language, each with ``facts`` planted facts."""
    rng = random.Random(seed)
    ds = Dataset(name="synthetic", corpus={}, queries={}, qrels={})
    start = datetime(2024, 1, 1, 9, tzinfo=UTC)
    for lang in langs:
        for u in range(users):
            _conversation(ds, f"{lang}-u{u}", lang, sessions, turns, facts, rng, start)
    ds.params.update(
        {
            "users_per_lang": users,
            "sessions": sessions,
            "turns": turns,
            "facts": facts,
            "langs": list(langs),
            "seed": seed,
        }
    )
    ds.stats.update({"docs": len(ds.corpus), "queries": len(ds.queries)})
    ds.validate()
    return ds


def synthetic_scale(records: int, *, queries: int = 50, seed: int = 0) -> Dataset:
    """One English user with ``records`` turns and ``queries`` planted-fact questions."""
    turns = 50
    sessions = max(1, -(-records // turns))
    ds = Dataset(name=f"synthetic-{records}", corpus={}, queries={}, qrels={})
    rng = random.Random(seed)
    start = datetime(2020, 1, 1, 9, tzinfo=UTC)
    # Plant facts in separate blocks so that every question names one planted person.
    per_block = len(_EN_FACTS) + 3
    blocks = max(1, -(-queries // (len(_EN_FACTS) + 1)))
    block_sessions = max(1, sessions // blocks)
    done = 0
    for b in range(blocks):
        # The last block takes what is left, so the corpus reaches ``records``.
        n_sessions = sessions - done if b == blocks - 1 else min(block_sessions, sessions - done)
        if n_sessions <= 0:
            break
        sub = Dataset(name="block", corpus={}, queries={}, qrels={})
        _conversation(
            sub, "scale", "en", n_sessions, turns, per_block, rng, start + timedelta(days=done)
        )
        for doc_id, doc in sub.corpus.items():
            s, t = doc_id.split("/D")[1].split(":")
            ds.corpus[f"scale/D{int(s) + done}:{t}"] = doc
        for qid, text in sub.queries.items():
            new = f"scale/q{len(ds.queries)}"
            ds.queries[new] = text
            ds.query_meta[new] = sub.query_meta[qid]
            ds.qrels[new] = {
                f"scale/D{int(d.split('/D')[1].split(':')[0]) + done}:{d.split(':')[-1]}": 1
                for d in sub.qrels[qid]
            }
        done += n_sessions
    # Trim to exactly ``records``; questions whose evidence fell in the cut tail go too.
    keep = list(ds.corpus)[:records]
    ds.corpus = {d: ds.corpus[d] for d in keep}
    ds.qrels = {q: r for q, r in ds.qrels.items() if all(d in ds.corpus for d in r)}
    ds.queries = {q: ds.queries[q] for q in list(ds.qrels)[:queries]}
    ds.qrels = {q: ds.qrels[q] for q in ds.queries}
    ds.query_meta = {q: ds.query_meta[q] for q in ds.queries}
    ds.params.update({"records": records, "seed": seed})
    ds.validate()
    return ds
