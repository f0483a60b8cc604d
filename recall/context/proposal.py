"""The deep-recall proposal: the model offers to remember, the user's next turn answers.

Deep recall is explicit (see docs/design.md): it runs when the user asks, or when the model
proposed it ("关于这个，我需要深度回忆一下，可以吗？") and the user agreed. Feed
:class:`ProposalState` every turn (``on_user``, ``on_assistant``); ``on_user`` returns a
:class:`ProposalDecision` whose ``query``, when set, is what to deep_recall. The next user
turn answers, whatever it says, and the proposal is gone: consent (or a new explicit
request) runs deep_recall, refusal and "other" clear it. Why "other" clears: a proposal the
user talked past would turn a later, unrelated "ok" into a search they never agreed to, and
the model can propose again. An assistant message proposing nothing clears it too: the user
answers what they read last.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..tool import wants_deep_recall

__all__ = [
    "Consent",
    "DEEP_RECALL_PROMPT_EN",
    "DEEP_RECALL_PROMPT_ZH",
    "Outcome",
    "PROPOSAL_EN",
    "PROPOSAL_ZH",
    "Proposal",
    "ProposalDecision",
    "ProposalState",
    "classify_consent",
    "is_recall_proposal",
]

#: The sentence the prompts ask the model to propose with (detected, as are variants).
PROPOSAL_EN = "I need a moment to recall more deeply — may I?"
PROPOSAL_ZH = "关于这个，我需要深度回忆一下，可以吗？"

#: System-prompt text (English) telling the model when to call ``deep_recall``.
DEEP_RECALL_PROMPT_EN = (
    "You have a tool, deep_recall, that searches your long-term memory of this user (past "
    "conversations, what you have learned about them). A search makes the user wait, so:\n"
    '- Call deep_recall when the user asks you to remember or look back ("try to remember", '
    '"do you remember what I said about...", "look back through our history").\n'
    "- When an answer depends on your shared past and what you see is not enough, do not "
    "search on your own: say so honestly and ask in one short sentence at the end of your "
    f'reply, e.g. "{PROPOSAL_EN}" Then wait for the answer.\n'
    "- Call deep_recall once the user agrees (yes, sure, go ahead). If they decline or move "
    "on, answer from what you have and do not ask again about the same question.\n"
    "- Never call it for general knowledge, how-to questions, or on every turn. Write the "
    "query as a short question or keywords in the user's language."
)

#: System-prompt text (Chinese) telling the model when to call ``deep_recall``.
DEEP_RECALL_PROMPT_ZH = (
    "你有一个工具 deep_recall，用来检索你对这位用户的长期记忆：过往对话，以及你对用户的了解。"
    "检索会让用户等待，所以只在明确需要时调用：\n"
    "- 用户明确要求你回忆时调用（如“你仔细想想”“帮我回忆一下”“你还记得我说过……吗”）。\n"
    "- 当回答取决于你们共同的过去、而你眼前的信息不够时，不要自行检索：诚实地说明，并在回复末尾"
    f"用一句话征求同意，例如“{PROPOSAL_ZH}”然后等待用户回答。\n"
    "- 用户同意后（可以、好的、行、去吧）再调用 deep_recall；用户拒绝或转开话题时，就用已有信息"
    "回答，不要为同一个问题再次提议。\n"
    "- 不要为常识或操作方法类问题调用，也不要每轮都调用。"
    "query 用用户的语言，写成简短的问题或关键词。"
)

#: How a user's turn answers a proposal; what :meth:`ProposalState.on_user` decided.
Consent = Literal["consent", "refusal", "other"]
Outcome = Literal["consent", "request", "refusal", "other", "idle"]

# A proposal is an offer by the model ("may I", "would you like me to", "可以吗", "要不要我")
# governing a recall verb, within one sentence and the next ("Let me think back. OK?").
_RECALL_EN = (
    r"(?:recall|remember(?!\s+(?:this|that|it)\b)|think\s+back|look\s+back|deep[\s-]recall"
    r"|(?:search|check|dig|go|look|scroll|browse)\b[^.?!]{0,30}?\b(?:memory|memories|history"
    r"|(?:our|past|previous|earlier)\s+(?:conversations|chats|discussions|records)))"
)
_I = re.IGNORECASE
_OFFER_EN = re.compile(
    rf"\b(?:(?:may|can|could|shall|should)\s+i|(?:would\s+you\s+like|do\s+you\s+want|want)"
    rf"\s+me\s+to)\s+(?:\w+\s+){{0,5}}?{_RECALL_EN}",
    _I,
)
_INTENT_EN = re.compile(
    rf"\b(?:i(?:'d|\s+would|\s+need|\s+want|\s+could|\s+can|'ll\s+need)|let\s+me)\s+"
    rf"(?:[\w-]+\s+){{0,6}}?{_RECALL_EN}",
    _I,
)
_ASK_EN = re.compile(
    r"\b(?:may\s+i|shall\s+i|(?:is\s+that|would\s+that\s+be|if\s+that(?:'s|\s+is))\s+(?:ok|okay"
    r"|alright|all\s+right|fine)|ok(?:ay)?\s*\?|do\s+you\s+mind|mind\s+if\s+i|with\s+your\s+"
    r"permission|go\s+ahead\s*\?|if\s+you(?:'d)?\s+(?:like|want))",
    _I,
)
# The recall verb; one with 你 just before it is asked of the user ("你再回忆一下"), so
# "帮你回忆" is read as "帮回忆" first.
_FOR_YOU = re.compile(r"(?<=[帮为给替])你")
_RECALL_ZH = re.compile(
    r"(?<!你)(?<!你.)(?<!你..)(?:深度|深入|仔细|好好|认真)?(?:回忆|回想|想一想|翻(?:一下|翻|看|阅)"
    r"|(?:查|查一下|查查|查阅|搜索|检索)[^，。？！]{0,6}(?:记录|记忆|历史|之前|以前))"
)
_ASK_ZH = re.compile(
    r"可以吗|好吗|行吗|可以不|行不行|好不好|可不可以|方便吗|介意吗|同意吗|要不要|需不需要|需要我|要我|是否"
    r"|(?:我|让我)(?:可以|能)[^。！？]{0,12}吗|能(?:不能|否)?让我"
)
_NEGATED = re.compile(r"不记得|想不起|没有印象|(?:don'?t|can'?t)\s+(?:recall|remember)", _I)
_SENTENCES = re.compile(r"[^。！？.!?\n]+[。！？.!?]*")
_TOPIC = re.compile(
    r"关于([^，,。？?！!]{2,30})[，,]|\b(?:about|regarding)\s+([^,.;:?!—–]{3,60})", _I
)
_PRONOUNS = {"这个", "这", "那个", "这件事", "那件事", "此事", "这一点", "this", "that", "it"}


def is_recall_proposal(text: str) -> bool:
    """True when a model's ``text`` proposes a deep recall and asks the user's leave."""
    if not isinstance(text, str):
        return False
    sentences = [s for s in _SENTENCES.findall(text) if s.strip()]
    for i, sentence in enumerate(sentences):
        window = " ".join(sentences[i : i + 2])
        en = _OFFER_EN.search(sentence) or (_INTENT_EN.search(sentence) and _ASK_EN.search(window))
        zh = _RECALL_ZH.search(_FOR_YOU.sub("", sentence)) and _ASK_ZH.search(window)
        if (en or zh) and not _NEGATED.search(sentence):
            return True
    return False


def _topic(text: str) -> str | None:
    # "关于你的旅行, 我需要…" names its topic; "关于这个" points back to the user's turn.
    found = ((m.group(1) or m.group(2) or "").strip() for m in _TOPIC.finditer(text))
    return next((topic for topic in found if topic and topic.lower() not in _PRONOUNS), None)


# Said with a negation yet agreeing ("no problem", "不介意"): read as consent first.
_NEGATED_CONSENT = re.compile(
    r"no\s+problem|no\s+worries|why\s+not|(?:i\s+)?don'?t\s+mind|do\s+not\s+mind"
    r"|没问题|不介意|没关系|何乐而不为",
    _I,
)
_REFUSAL = re.compile(
    r"^\s*no\b|\bnope\b|\bnah\b|\bno\s+(?:thanks|thank\s+you|need|way)\b|\bdo\s+not\b"
    r"|\bdon'?t\b(?!\s+(?:know|think|understand|see|get|care|have))|\bnever\s*mind\b|\bskip\b"
    r"|\bnot\s+(?:now|necessary|needed|today|yet|really)\b|\bforget\s+(?:it|about\s+it)\b"
    r"|\b(?:stop|cancel|later)\b|\blet'?s\s+not\b|\brather\s+not\b"
    r"|不用|不要(?!紧)|算了|(?<![特区分告识类级性个差])别(?![的人处])|不必|(?<![受少免])不了|不行"
    r"|不可以|不好(?!意思)|没必要|先不|跳过|不需要|免了|甭|不想|以后再说|改天|下次吧|回头再说",
    _I,
)
_BAR = "|"  # the word lists are "|"-separated: some words have spaces
_CORE = frozenset(
    "yes|yeah|yep|yup|yea|ya|y|sure|ok|okay|k|alright|all right|go ahead|go for it|please do|"
    "please|do it|of course|absolutely|definitely|certainly|fine|sounds good|good idea|"
    "by all means|proceed|go on|agreed|cool|great|perfect|👍|👌|可以|好的|好|行|嗯|去吧|当然|"
    "请|是|是的|对|要|来吧|麻烦了|拜托了|需要|同意|可|成|查吧|回忆吧|想吧|找吧|翻吧|搜吧|开始吧|"
    "快去|试试".split(_BAR)
)
# Words that may stand around a consent without changing it ("yes please, go ahead then").
_FILLER = frozenset(
    "then|it|that|thanks|thank you|thx|you|just|oh|um|uh|well|so|and|now|try|to|hard|harder|"
    "recall|remember|search|look|dig|in|for me|take your time|go|do|sure thing|that's|is|吧|啊|"
    "呀|呢|了|的|哦|噢|嘛|你|我|那|就|先|谢谢|谢|麻烦|快|去|回忆|想想|查|查查|翻|翻翻|找|找找|看看|"
    "一下|下|啦|呗|哈|好好|仔细|帮我|帮|深度|深入|开始".split(_BAR)
)
_TOKENS = sorted(_CORE | _FILLER, key=len, reverse=True)
_CLAUSES = re.compile(r"[，,。.!！?？;；、\n~～…:：]+")
_WORD_CHAR = re.compile(r"[a-z0-9']")
_HESITATION = re.compile(r"(?:嗯+|u+m+|u+h+|h+m+)\s*(?:…+|\.{2,})")
_ClauseKind = Literal["consent", "filler", "refusal", "content"]


def _clause_kind(clause: str) -> _ClauseKind:
    if _REFUSAL.search(clause):
        return "refusal"
    # Can the clause be cut entirely into consent and filler words? reach[i]: the clause up
    # to i can, and whether a consent word was among them (a DP: no regex backtracking).
    reach: dict[int, bool] = {0: False}
    for i in range(len(clause) + 1):
        if i not in reach:
            continue
        if i == len(clause):
            return "consent" if reach[i] else "filler"
        if clause[i].isspace():
            reach[i + 1] = reach.get(i + 1, False) or reach[i]
            continue
        for token in _TOKENS:
            end = i + len(token)
            if clause.startswith(token, i) and not (
                token.isascii() and end < len(clause) and _WORD_CHAR.match(clause[end])
            ):
                reach[end] = reach.get(end, False) or reach[i] or token in _CORE
    return "content"


def _clause_kinds(text: str) -> list[_ClauseKind]:
    # "嗯…" and "um..." hesitate; they are not the "嗯" that agrees.
    body = _HESITATION.sub(" ", _NEGATED_CONSENT.sub(" yes ", text.lower()))
    return [_clause_kind(c.strip()) for c in _CLAUSES.split(body) if c.strip()]


def classify_consent(text: str) -> Consent:
    """How the user's ``text`` answers a proposal: "consent", "refusal" or "other".

    Consent: "可以", "好的", "去吧", "sure", "go ahead", "please do", or a new explicit
    request to remember. Refusal: "不用", "算了", "别", "no", "never mind", "skip it".
    A turn that says both ("好的，不用了") or neither ("what do you mean?") is "other".
    """
    if not isinstance(text, str):
        return "other"
    kinds = _clause_kinds(text)
    consent = "consent" in kinds or wants_deep_recall(text)
    refusal = "refusal" in kinds
    if consent != refusal:
        return "consent" if consent else "refusal"
    return "other"


@dataclass(frozen=True)
class Proposal:
    """A pending deep-recall proposal: the query it is about and when it was made."""

    query: str
    made_at: float


@dataclass(frozen=True)
class ProposalDecision:
    """What a user's turn decided; ``query`` is set exactly when deep_recall should run.

    ``outcome``: "consent" (to the pending proposal), "request" (explicit, nothing pending),
    "refusal", "other" (the proposal went unanswered), "idle" (nothing pending or asked).
    """

    outcome: Outcome
    query: str | None = None
    proposal: Proposal | None = None

    @property
    def run(self) -> bool:
        """True when the host should call deep_recall with :attr:`query`."""
        return self.query is not None


class ProposalState:
    """The pending proposal of one conversation; feed it every user and assistant turn."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._pending: Proposal | None = None
        self._last_user: str | None = None

    @property
    def pending(self) -> Proposal | None:
        """The proposal awaiting the user's answer, if any."""
        return self._pending

    def propose(self, query: str) -> Proposal:
        """Hold a proposal about ``query`` (the model proposed through the API, not text)."""
        if not isinstance(query, str) or not query.strip():
            raise ValueError("a proposal needs a non-empty query")
        self._pending = Proposal(query=query.strip(), made_at=self._clock())
        return self._pending

    def on_assistant(self, text: str, *, query: str | None = None) -> Proposal | None:
        """Read a model message: a proposal in it becomes pending and is returned.

        Its query: ``query`` if given, else the topic the proposal names ("关于你的旅行，…"),
        else the user's last turn (what the model is answering). A non-empty message that
        proposes nothing clears a pending proposal; an empty one (tool calls only) keeps it.
        """
        if not isinstance(text, str) or not text.strip():
            return None
        if not is_recall_proposal(text):
            self._pending = None
            return None
        return self.propose(query or _topic(text) or self._last_user or text)

    def on_user(self, text: str) -> ProposalDecision:
        """Read the user's turn and decide; the pending proposal is answered and cleared."""
        pending, self._pending = self._pending, None
        self._last_user = text if isinstance(text, str) and text.strip() else self._last_user
        if pending is None:
            if isinstance(text, str) and wants_deep_recall(text):
                return ProposalDecision("request", query=text.strip())
            return ProposalDecision("idle")
        answer = classify_consent(text)
        if answer != "consent":
            return ProposalDecision(answer, proposal=pending)
        # "好, 你回忆一下吧" agrees to the proposal; "sure — and what did we decide about the
        # budget?" is a request of its own: then the user's words are the query.
        own = wants_deep_recall(text) and "content" in _clause_kinds(text)
        return ProposalDecision("consent", text.strip() if own else pending.query, pending)

    def clear(self) -> None:
        """Drop the pending proposal (the host handled it another way)."""
        self._pending = None
