"""The deep-recall proposal flow: the model proposes, the user's next turn decides."""

from __future__ import annotations

import pytest

import recall
from recall.context.proposal import (
    DEEP_RECALL_PROMPT_EN,
    DEEP_RECALL_PROMPT_ZH,
    PROPOSAL_EN,
    PROPOSAL_ZH,
    ProposalDecision,
    ProposalState,
    classify_consent,
    is_recall_proposal,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    "text",
    [
        "可以",
        "好的",
        "好",
        "行",
        "嗯",
        "去吧",
        "当然",
        "当然可以！",
        "好啊，你查吧",
        "没问题",
        "sure",
        "yes",
        "ok",
        "OK thanks",
        "go ahead",
        "please do",
        "Yes please!",
        "sure, go ahead",
        "I don't mind",
        "👍",
        # A new explicit request is consent too.
        "帮我回忆一下上次的预算",
        "try to remember",
    ],
)
def test_consent(text: str) -> None:
    assert classify_consent(text) == "consent"


@pytest.mark.parametrize(
    "text",
    [
        "不用",
        "不要",
        "算了",
        "别",
        "不用了，谢谢",
        "别查了",
        "不行",
        "不可以",
        "no",
        "No thanks",
        "don't",
        "never mind",
        "skip it",
        "not now",
        "maybe later",
    ],
)
def test_refusal(text: str) -> None:
    assert classify_consent(text) == "refusal"


@pytest.mark.parametrize(
    "text",
    [
        "好的，不用了",  # both
        "Yes. No, wait.",  # both
        "what do you mean?",  # neither
        "I'm not sure",
        "I don't know",
        "明天天气怎么样",
        "好久不见",  # 好 inside a word is no consent
        "别的问题",  # nor is 别 in 别的
        "不好意思，我不太懂",
        "嗯…让我想想",  # a hesitating 嗯
        "",
    ],
)
def test_other(text: str) -> None:
    assert classify_consent(text) == "other"


@pytest.mark.parametrize(
    "text",
    [
        PROPOSAL_EN,
        PROPOSAL_ZH,
        "关于这个，我需要花点时间深入回忆一下，可以吗？",
        "要不要我回忆一下我们之前的对话？",
        "需要我翻一下我们的聊天记录吗？",
        "我可以仔细回想一下吗？",
        "要我帮你回忆一下吗？",
        "Would you like me to look back through our history?",
        "Shall I dig into our past conversations?",
        "May I take a moment to search my memory?",
        "Let me think back. Is that ok?",
        "I'd like to look back through our earlier chats, if that's okay.",
        "Paris is lovely in May. I could recall more of what you told me, if you like.",
    ],
)
def test_a_proposal_is_detected_in_a_model_message(text: str) -> None:
    assert is_recall_proposal(text)


@pytest.mark.parametrize(
    "text",
    [
        "The capital of France is Paris.",
        "I don't recall you mentioning that. Could I ask what it was?",
        "As I recall, you prefer tea. Shall I add it to the list?",
        "Shall I search the web for that?",
        "Would you like me to remember this for next time?",  # storing, not recalling
        "Can you recall when that was?",  # asked of the user
        "你再回忆一下，可以吗？",
        "我不记得了，你能告诉我吗？",
        "",
    ],
)
def test_other_model_messages_are_no_proposal(text: str) -> None:
    assert not is_recall_proposal(text)


def test_consent_runs_deep_recall_with_the_turn_the_model_answered() -> None:
    clock = Clock()
    state = ProposalState(clock=clock)
    assert state.on_user("数据库最后用的哪个？") == ProposalDecision("idle")
    proposal = state.on_assistant(PROPOSAL_ZH)
    assert proposal is not None and state.pending == proposal
    assert proposal.query == "数据库最后用的哪个？" and proposal.made_at == 1000.0
    decision = state.on_user("好的")
    assert decision.outcome == "consent" and decision.run
    assert decision.query == "数据库最后用的哪个？" and decision.proposal == proposal
    assert state.pending is None
    # Answered once: a later "ok" runs nothing.
    assert not state.on_user("ok").run


def test_refusal_clears_the_proposal() -> None:
    state = ProposalState()
    state.on_user("What did we pick for the cache?")
    state.on_assistant(f"Good question. {PROPOSAL_EN}")
    decision = state.on_user("no thanks")
    assert decision.outcome == "refusal" and not decision.run and decision.query is None
    assert decision.proposal is not None and state.pending is None


def test_other_clears_the_proposal() -> None:
    state = ProposalState()
    state.on_user("What did we pick for the cache?")
    state.on_assistant(PROPOSAL_EN)
    decision = state.on_user("What's the weather like?")
    assert decision.outcome == "other" and not decision.run and state.pending is None
    assert state.on_user("ok").outcome == "idle"


def test_an_assistant_message_without_a_proposal_clears_it() -> None:
    state = ProposalState()
    state.propose("cache choice")
    assert state.on_assistant("") is None and state.pending is not None  # tool calls only
    assert state.on_assistant("Here is the weather.") is None and state.pending is None
    assert state.on_user("sure").outcome == "idle"


def test_the_explicit_api_and_an_explicit_query() -> None:
    clock = Clock()
    state = ProposalState(clock=clock)
    proposal = state.propose("  the trip to Japan ")
    assert proposal.query == "the trip to Japan" and proposal.made_at == 1000.0
    clock.now = 1005.0
    state.on_user("hi")
    assert state.on_assistant(PROPOSAL_EN, query="budget").query == "budget"  # type: ignore[union-attr]
    assert state.on_user("go ahead").query == "budget"
    with pytest.raises(ValueError):
        state.propose("   ")


def test_the_proposal_names_its_topic() -> None:
    state = ProposalState()
    state.on_user("怎么样？")
    proposal = state.on_assistant("关于你的日本旅行，我需要深度回忆一下，可以吗？")
    assert proposal is not None and proposal.query == "你的日本旅行"
    # "关于这个" points back to the user's turn.
    assert state.on_assistant(PROPOSAL_ZH).query == "怎么样？"  # type: ignore[union-attr]


def test_a_new_explicit_request_is_consent() -> None:
    state = ProposalState()
    state.on_user("数据库最后用的哪个？")
    state.on_assistant(PROPOSAL_ZH)
    # A bare request agrees to the proposal: its query runs.
    bare = state.on_user("好，你回忆一下吧")
    assert bare.outcome == "consent" and bare.query == "数据库最后用的哪个？"
    # A request that names something else runs with the user's words.
    state.on_assistant(PROPOSAL_ZH)
    own = state.on_user("帮我回忆一下上次的预算")
    assert own.outcome == "consent" and own.query == "帮我回忆一下上次的预算"


def test_an_explicit_request_with_nothing_pending() -> None:
    state = ProposalState()
    decision = state.on_user(" Try to remember what we decided about the cache ")
    assert decision == ProposalDecision(
        "request", query="Try to remember what we decided about the cache"
    )
    assert state.on_user("What's 2 + 2?") == ProposalDecision("idle")


def test_clear_drops_the_pending_proposal() -> None:
    state = ProposalState()
    state.propose("x")
    state.clear()
    assert state.pending is None and state.on_user("yes").outcome == "idle"


def test_the_prompts_say_when_to_call_and_how_to_propose() -> None:
    for prompt, proposal in (
        (DEEP_RECALL_PROMPT_EN, PROPOSAL_EN),
        (DEEP_RECALL_PROMPT_ZH, PROPOSAL_ZH),
    ):
        assert "deep_recall" in prompt and proposal in prompt
        # The sentence the prompt teaches is the one the state machine recognises.
        assert is_recall_proposal(proposal)
    for needle in ("asks you to remember", "once the user agrees", "Never call it"):
        assert needle in DEEP_RECALL_PROMPT_EN, needle
    for needle in ("明确要求你回忆", "用户同意后", "不要每轮都调用"):
        assert needle in DEEP_RECALL_PROMPT_ZH, needle


def test_the_names_are_public() -> None:
    for name in (
        "DEEP_RECALL_PROMPT_EN",
        "DEEP_RECALL_PROMPT_ZH",
        "Proposal",
        "ProposalDecision",
        "ProposalState",
        "classify_consent",
        "is_recall_proposal",
    ):
        assert name in recall.__all__, name


def test_a_session_holds_the_proposal_and_reads_the_users_answer() -> None:
    from recall.context.proposal import PROPOSAL_ZH
    from recall.context.session import Session

    s = Session(auto_compact=False)
    assert not s.add_user("日本旅行的预算怎么安排比较好？").run
    s.add_assistant(PROPOSAL_ZH)
    assert s.proposal.pending is not None
    decision = s.add_user("好的")
    assert decision.run and decision.outcome == "consent" and decision.query
    assert s.proposal.pending is None  # answered: a later "ok" runs nothing
    s.add_assistant(PROPOSAL_ZH)
    refused = s.add_user("算了，不用了")
    assert not refused.run and refused.outcome == "refusal"
