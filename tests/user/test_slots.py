"""What is true now: slots of the user, supersession, the block's view, the present's order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from recall.context.current import current_view
from recall.lifecycle.article import Article
from recall.models import Record
from recall.user.article_facts import supersede
from recall.user.present import present_first
from recall.user.slots import asks_past, query_slots, slots_of, supersedes
from recall.user.superseded import current_texts, statement_slots

# (newer, older): the newer one replaces the older, direct and indirect, en and zh.
CHANGES = [
    ("I signed the lease on a place in Ghent", "I live in Antwerp with my two cats"),
    ("Handed in my badge at Acme today, Globex starts Monday.", "I work at Acme."),
    ("I accepted an offer from Shopify!", "I'm a data engineer at Quantix in Toronto."),
    ("I sold the Civic and bought an Ioniq 5.", "I drive a Honda Civic to work."),
    ("I switched from vim to VS Code last week.", "I use vim for everything."),
    ("We broke up in March; I'm seeing Sam now.", "My girlfriend is called Lea."),
    ("I went vegan in January.", "I'm vegetarian, but I still eat fish sometimes."),
    ("I now prefer longer, detailed explanations.", "I like short answers with bullet points."),
    ("Our dog Rex passed away last month.", "We have a dog named Rex."),
    ("把自行车卖了，以后坐公交。", "我每天骑自行车上班。"),
    ("下个月开始去字节上班了。", "我在阿里巴巴工作。"),
    ("我们搬到成都了。", "我住在杭州，离西湖很近。"),
    ("我现在更喜欢简短的回答。", "我更喜欢详细一点的回答。"),
    ("我升职了，现在是技术总监。", "我是一名后端工程师。"),
    ("我们分手了。", "我女朋友叫小雨。"),
]

# (newer, older): the newer one does NOT replace the older.
KEEPS = [
    ("I worked for hours on that bug.", "I work at Acme."),
    ("I took the bus today because of the rain.", "I drive a Civic."),
    ("We also adopted a kitten named Miso.", "I have a dog named Rex."),
    ("My sister lives in Toronto.", "I live in Vancouver."),
    ("Should I move to Toronto?", "I live in Vancouver."),
    ("I'm thinking about moving to Lisbon someday.", "I live in Vancouver."),
    ("我老公是医生。", "我是一名律师。"),
    ("请以后回答都用中文。", "我现在更喜欢简短的回答。"),
    ("我妈妈住在北京。", "我住在杭州。"),
    ("Work was exhausting today.", "I work at Acme."),
    # A vegetarian restaurant is a place, not the user's diet.
    ("情人节陈磊送了我一束花，还订了一家素食餐厅。", "我吃素，怕扫大家的兴。"),
    ("Daniel booked a vegetarian restaurant for us.", "I'm vegan."),
]


@pytest.mark.parametrize("newer, older", CHANGES)
def test_a_newer_statement_supersedes(newer: str, older: str) -> None:
    assert supersedes(newer, older), (slots_of(newer), slots_of(older))


@pytest.mark.parametrize("newer, older", KEEPS)
def test_a_near_miss_supersedes_nothing(newer: str, older: str) -> None:
    assert not supersedes(newer, older), (slots_of(newer), slots_of(older))


@pytest.mark.parametrize(
    "query, slot, past",
    [
        ("Where do I live now?", "home", False),
        ("Where did I live before I moved?", "home", True),
        ("Which company did I work at before Globex?", "work", True),
        ("What car do I drive?", "transport", False),
        ("我现在开什么车？", "transport", False),
        ("我以前在哪个城市住？", "home", True),
        ("Do I have any pets?", "pet", False),
    ],
)
def test_questions_name_their_slot_and_tense(query: str, slot: str, past: bool) -> None:
    assert slot in query_slots(query)
    assert asks_past(query) is past


def test_assistant_lines_supersede_nothing_and_a_summary_left_empty_goes() -> None:
    newer = "User: Any tips for a rainy day?\nAssistant: You could move to Toronto, ha."
    older = "User: I live in Antwerp. I love the cafés here.\nAssistant: Antwerp is lovely."
    assert statement_slots(newer) == frozenset()
    assert current_texts([[newer], [older]]) == [[newer], [older]]
    moved = "User: I moved to Ghent last week!\nAssistant: Congratulations."
    only = "User: I live in Antwerp.\nAssistant: Noted."
    out = current_texts([[moved], [older, only]])
    assert out[0] == [moved]
    assert out[1] == ["User: I love the cafés here.\nAssistant: Antwerp is lovely.", ""]


def test_one_group_said_together_does_not_supersede_itself() -> None:
    text = "User: I moved to Ghent. I love living in Ghent near the river."
    assert current_texts([[text]]) == [[text]]


def _record(i: int, text: str, day: int, kind: str = "short_term") -> Record:
    at = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=day)
    return Record(id=f"r{i}", user_id="u", kind=kind, text=text, created_at=at, tokens=9)


def test_the_block_view_drops_stale_article_and_summary_sentences() -> None:
    article = Article(bedrock="I know the user lives in Antwerp.\n\nI know the user's name is Ada.")
    summaries = [
        _record(1, "User: I drive a Civic.", 3),
        _record(2, "User: I sold the Civic and bought an Ioniq 5.", 9),
        _record(3, "User: I signed the lease on a flat in Ghent.", 5),
    ]
    art, kept = current_view(article, summaries)
    assert art.bedrock == "I know the user's name is Ada."
    assert [r.id for r in kept] == ["r2", "r3"]  # input order kept, the stale one gone


def test_the_present_gets_the_newest_statement_first_and_the_past_keeps_the_order() -> None:
    hits = [
        _record(1, "User: I live in Antwerp with my cats.", 1),
        _record(2, "User: the Antwerp zoo was fun.", 2),
        _record(3, "User: I signed the lease on a place in Ghent.", 30),
    ]
    assert present_first("Where do I live now?", hits) == [2, 1, 0]
    assert present_first("Where did I live before?", hits) == [0, 1, 2]
    assert present_first("What did I do at the zoo?", hits) == [0, 1, 2]


def test_the_article_drops_a_stale_slot_and_restates_the_rest() -> None:
    verdicts = supersede(
        ["I know the user moved to Ghent.", "I know the user's name is Ada and lives in Antwerp."]
    )
    assert verdicts[0] is None
    assert verdicts[1] == ["I know the user's name is Ada."]
