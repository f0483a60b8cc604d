"""The learned half of the privacy reading: requests not to keep that the patterns miss,
read from the whole message; everyday statements and requests to remember kept. The
phrasings here were written for this test, not taken from any data set it was fitted on."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

import recall
from recall.lifecycle.privacy import asks_privacy, private_turns
from recall.lifecycle.privacy_model import learned_reader, load_privacy_model

# Requests the patterns do not read (checked below): the model, tuned to take almost no
# everyday message, finds few of them (2 of these 6 at log-odds 6.5); none of what to keep.
MISSED_REQUESTS = [
    "My locker combination is 31-07-22; once you have checked it, erase it from what you "
    "know about me.",
    "The alarm code for the studio is 8842. Treat it as something you never heard after this chat.",
    "Quick one, my tax file number is 123 456 782, wipe it when we are done here.",
    "I was signed off work for burnout last month. Please do not hold on to that.",
    "我的社保卡号是 1234567890，问完就清掉，不要留在你那儿。",
    "我前阵子查出来甲状腺结节，这个聊完你就当没听过。",
]
# What must be kept: everyday statements, requests to remember, "forget it" = never mind.
TO_KEEP = [
    "Please remember that my daughter is allergic to penicillin.",
    "Forget it, I will write the email myself.",
    "Keep in mind that I am vegetarian when you suggest recipes.",
    "I moved to a flat near the river last month and the heating is terrible.",
    "记住我对青霉素过敏。",
    "我上周换了新工作，现在每天坐地铁上班。",
    "My therapist thinks I should take a week off.",
]


def test_another_embedder_leaves_the_patterns_alone(embedder: recall.Embedder) -> None:
    # The weights hold for the model they were fitted with: a hash embedder gets None.
    assert load_privacy_model(embedder) is None
    assert learned_reader(lambda: embedder)([MISSED_REQUESTS[0], TO_KEEP[0]]) == [False, False]


def _chat(*users: str) -> list[dict[str, str]]:
    out = []
    for text in users:
        out += [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]
    return out


def test_a_learned_request_covers_its_replies_and_a_short_one_points_back() -> None:
    secret = "My bike lock code is 4471."
    long_request = "I would rather this one did not end up anywhere, it is my bike lock code 4471."
    flags = {long_request: True, "Wipe that too.": True}

    def learned(texts: Sequence[str]) -> list[bool]:
        return [flags.get(t, False) for t in texts]

    assert asks_privacy(long_request) is None and asks_privacy("Wipe that too.") is None
    # A long message read as a request: itself and the reply after it.
    assert private_turns(_chat("Hello there.", long_request), learned) == {2, 3}
    # A short one: nothing else in it to keep private, so it points back at the turn before.
    assert private_turns(_chat(secret, "Wipe that too."), learned) == {0, 1, 2, 3}
    # Without the learned reader the patterns alone decide: nothing here is theirs.
    assert private_turns(_chat(secret, "Wipe that too.")) == set()


@pytest.mark.real_model
def test_the_model_reads_requests_the_patterns_miss_and_keeps_look_alikes(
    real_embedder: recall.Embedder,
) -> None:
    model = load_privacy_model(real_embedder)
    assert model is not None
    assert all(asks_privacy(t) is None for t in MISSED_REQUESTS + TO_KEEP)
    found = model.asks(MISSED_REQUESTS)
    assert sum(found) >= 1, list(zip(MISSED_REQUESTS, model.logits(MISSED_REQUESTS), strict=True))
    assert not any(model.asks(TO_KEEP)), list(zip(TO_KEEP, model.logits(TO_KEEP), strict=True))


@pytest.mark.real_model
def test_update_memory_keeps_out_what_only_the_model_reads(tmp_path: Path) -> None:
    request = MISSED_REQUESTS[4]
    with recall.open(tmp_path / "m") as mem:
        assert load_privacy_model(mem.embedder()) is not None
        mem.update_memory(
            [
                {"role": "user", "content": "I started learning the cello this spring."},
                {"role": "assistant", "content": "Lovely, how is it going?"},
                {"role": "user", "content": request},
                {"role": "assistant", "content": "That number has the right shape."},
            ],
            user_id="u1",
        )
        mem.flush()
        texts = " ".join(r.text for r in mem.records("u1"))
        assert "cello" in texts
        assert "1234567890" not in texts and "right shape" not in texts
