"""What the user asks not to keep: the detector's phrasings, and no tier ever holding it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import recall
from recall.lifecycle.privacy import asks_privacy, private_turns

# (text, "this" | "back"): "back" also covers what was said before it.
PRIVATE = [
    ("keep this between us: the door code is 4412", "this"),
    ("Please don't store my password, it's hunter2", "this"),
    ("don't remember this: my PIN is 9921", "this"),
    ("Don't save this anywhere, but my salary is 140k now.", "this"),
    ("Just between you and me, I'm interviewing at Globex.", "this"),
    ("This is off the record: I'm pregnant.", "this"),
    ("I'm telling you in confidence that my brother is in rehab.", "this"),
    ("It's confidential: the merger closes Friday with Initech.", "this"),
    ("Keep it to yourself, but I failed the bar exam again.", "this"),
    ("You don't need to remember this, but my locker combination is 12-30-4.", "this"),
    ("I'd rather you didn't store this: my ex's new number is 555-0101.", "this"),
    ("Never record my credit card number, it's 4111 1111 1111 1111.", "this"),
    ("do not add this to your memory: I'm seeing a therapist for anxiety", "this"),
    ("Please don\u2019t keep a record of this. I owe my landlord three months.", "this"),
    ("don't write this down — the wifi password is tangerine77", "this"),
    ("forget what I just said", "back"),
    ("Please forget that.", "back"),
    ("Forget I said anything about the lawsuit.", "back"),
    ("Erase that from your memory, please.", "back"),
    ("Can you delete what I told you from your memory?", "back"),
    ("Don't remember that.", "back"),
    ("Pretend I never said that.", "back"),
    ("别记住这个", "back"),
    ("这个不要记下来", "back"),
    ("帮我保密", "back"),
    ("帮我保密：门禁密码是4412", "this"),
    ("这是我的秘密，我其实在考虑离婚。", "this"),
    ("别把我的密码存起来，密码是abc123。", "this"),
    ("你不用记这个，我下个月要做手术。", "this"),
    ("咱俩私下说，我打算辞职去创业了。", "this"),
    ("千万别记录，我的银行卡号是6222020200112233。", "this"),
    ("请勿保存：我的身份证号是110101199003077777", "this"),
    ("你知道就好，我老公欠了很多钱。", "this"),
    ("忘掉我刚才说的", "back"),
    ("当我没说", "back"),
    ("刚才说的那些你就别记了", "back"),
    ("把我刚才讲的删掉吧", "back"),
    ("不要留任何记录，我在偷偷找工作。", "this"),
    ("Don't tell anyone, but I have a crush on my coworker.", "this"),
    ("Keep this a secret: my bank PIN is 3321.", "this"),
    ("Can you keep a secret? My gate code is 7781.", "this"),
    ("I don't want this saved: my passport number is X1234567.", "this"),
    ("Confidential — my ex's address is 9 Oak Rd.", "this"),
    ("Don't save that. My locker code is 1122.", "back"),
    ("这个别存：我的密码是qwe123", "this"),
    ("你就当没听到吧，我欠了网贷", "this"),
    ("听完就忘了吧，我的门禁码是4412", "this"),
    ("这个只跟你说，我怀孕了", "this"),
    ("替我保守秘密：我的保险箱密码是9087", "this"),
    ("不要让别人知道，我在看心理医生", "this"),
    ("别往记忆里写，我的车牌号是浙A12345", "this"),
    # "forget it" as a second step, bound to a later moment or after "then".
    ("My passport number is K7730112, forget it as soon as the form is done.", "this"),
    ("Use my card number for the booking, then please forget it: 5500 0000 0000 0004", "this"),
    ("The alarm code is 0412. Forget this once you've written the note.", "this"),
]

NEAR_MISSES = [
    "I don't remember where I parked",
    "don't forget to buy milk",
    "我不记得了",
    "Do you remember my sister Ana?",
    "Please remember that I'm vegetarian.",
    "Remember this: I'm allergic to peanuts.",
    "I forgot my password again.",
    "Don't forget my dentist appointment on Friday.",
    "I can't remember the name of that song.",
    "Keep this in mind for later.",
    "Don't store files in git, use LFS.",
    "The secret to good bread is time.",
    "I don't want to forget this moment.",
    "Don't save the file yet, I'm still editing.",
    "She told me to keep it simple.",
    "I signed a confidentiality agreement at work.",
    "I never remember birthdays.",
    "Don't log this error as a warning.",
    "Don't write this function in Python, use Rust.",
    "The distance between us is large.",
    "It's a secret recipe from my grandma.",
    "Oh, forget it, I'll do it myself.",
    "Set it and forget it: the thermostat runs itself.",
    "I always write my plans down and then forget that I did.",
    "Forget it, when it rains the match is off anyway.",
    "Ignore what I said earlier, use Postgres.",
    "Don't you remember this place?",
    "记住我的生日是五月三号",
    "你还记得我妹妹吗？",
    "别忘了提醒我开会",
    "不要忘记吃药",
    "我忘了刚才说到哪了",
    "我签了保密协议",
    "成功的秘密是坚持",
    "别记错时间，是下午三点",
    "我们之间的关系很好",
    "别存钱了，先还贷款",
    "我刚才说的你别忘了",
    "他们私下说我坏话",
    "不要保存文件，我还在改",
    "我听完就忘了，记性太差",
    "Can you keep track of my tasks this week?",
    "I told him the secret ingredient is miso.",
]


@pytest.mark.parametrize(("text", "kind"), PRIVATE)
def test_private_phrasings(text: str, kind: str) -> None:
    assert asks_privacy(text) == kind


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses(text: str) -> None:
    assert asks_privacy(text) is None


def test_the_tables_are_large_enough() -> None:
    assert len(PRIVATE) >= 30 and len(NEAR_MISSES) >= 15
    assert sum(any("\u4e00" <= c <= "\u9fff" for c in t) for t, _ in PRIVATE) >= 10


def m(role: str, content: str) -> dict[str, str]:
    return {"role": role, "content": content}


def test_private_turns_cover_replies_and_point_back() -> None:
    messages = [
        m("system", "You are helpful."),
        m("user", "I live in Ghent."),
        m("user", "My pin is 5512."),
        m("assistant", "Got it, 5512."),
        m("user", "forget what I just said"),
        m("assistant", "Forgotten."),
        m("user", "keep this between us: the door code is 4412"),
        m("assistant", "Sure, 4412 stays with me."),
        m("tool", "door: 4412"),
        m("user", "What's the weather tomorrow?"),
        m("assistant", "Sunny."),
    ]
    assert private_turns(messages) == {2, 3, 4, 5, 6, 7, 8}
    assert private_turns([m("user", "hello"), m("assistant", "hi")]) == set()
    # A request with nothing before it covers itself alone.
    assert private_turns([m("user", "别记住这个"), m("user", "我住在杭州")]) == {0}


SMALL = {"short_term_capacity": 2, "promote_count": 2, "vector_partitions": 2}


@pytest.fixture
def mem(tmp_path: Path, embedder: recall.Embedder) -> Iterator[recall.Memory]:
    mm = recall.open(settings=recall.Settings(path=tmp_path / "memory", **SMALL))
    mm._embedder = embedder
    yield mm
    mm.close()


def chat(i: int) -> list[dict[str, str]]:
    return [
        m("user", f"Day {i}: my sister Ana moved to Lisbon for a design job, door code question."),
        m("assistant", "How does she like it?"),
        m("user", f"She loves the river walks; day {i} she sent photos of the door."),
    ]


def test_a_secret_never_enters_any_tier(mem: recall.Memory) -> None:
    mem.update_memory(chat(0), user_id="u1")
    secret = [
        m("user", "keep this between us: the door code is 4412"),
        m("assistant", "Understood, 4412 will stay between us."),
        m("user", "Also I started learning the cello this week."),
        m("assistant", "Lovely!"),
    ]
    done = mem.update_memory(secret, user_id="u1")
    assert done.summary_id
    everything_private = [m("user", "帮我保密：我的银行卡密码是778899"), m("assistant", "好的")]
    nothing = mem.update_memory(everything_private, user_id="u1")
    assert nothing.summary_id == "" and not nothing.promoted
    mem.update_memory(everything_private, user_id="u1", background=True)
    for i in range(1, 6):  # promotions: the article and the archive are built from it all
        mem.update_memory(chat(i), user_id="u1")
    assert mem.flush(30)
    assert mem.long_term("u1").version >= 2
    texts = [r.text for r in mem.records("u1")]
    assert any("cello" in t for t in texts)  # the rest of that conversation is kept
    for token in ("4412", "778899"):
        assert not [t for t in texts if token in t]
        for row in mem._store.articles("u1"):
            assert token not in f"{row.bedrock}{row.evolutionary}{row.dynamic}"
        hits = mem.deep_recall(f"what is the door code {token}", user_id="u1", depth="archive")
        assert not [h for h in hits if token in h.text]
        assert token not in mem.get_relevant_memories("door code", user_id="u1")
    assert mem.failed_jobs() == []
