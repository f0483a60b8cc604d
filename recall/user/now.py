"""What is true now: the user's statements of one attribute, and which of them is current.

Every sentence of the user's own messages (the ``turn`` records update_memory kept whose
role is ``user``) is labelled with the attribute it is about (:mod:`.attributes`: nearest
labelled examples; the sentence's own scores weigh :data:`SENTENCE_WEIGHT`, its message's
the rest, so "it's cold in there" borrows the topic of the message around it).

For one attribute, its sentences in the order they were said carry values. A *value* is
marked by salient words: names (capitalized mid-sentence) and words the user rarely uses
(at most :data:`RARE` of their sentences). A sentence **introduces** a value when it is an
assertion (:mod:`recall.text.stance`: no question, wish, plan, hypothetical or sentence
about someone else) and brings salient words the attribute never had, without naming an
earlier value (or naming a new name beside it: "left X for Y"). A later sentence naming an
earlier value is chatter about that value ("X still owes me overtime"), not a change. What
holds now is the value introduced **last**, not the one mentioned last.

Nothing here is a word list of values or topics: labels come from examples, values from
the user's own words. Everything is computed once per partition and cached with it (a
partition is rebuilt when the store changes; sentence vectors, scores and parses are
cached by text, so a rebuild after a write works only on what is new).
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property

import numpy as np
import numpy.typing as npt

from ..models import Profile, Record
from ..text.analyzer import Analyzer
from ..text.passages import split_sentences
from ..text.stance import NOT_NAMES
from .attributes import AttributeSpace
from .now_parse import parse

__all__ = ["Fact", "Sentence", "UserFacts", "facts_of", "user_statements"]

#: A word the user uses in at most this many sentences is salient (a value, likely).
RARE = 3
#: Weight of a sentence's own attribute scores against its message's.
SENTENCE_WEIGHT = 0.7


def user_statements(records: Sequence[Record]) -> list[int]:
    """Positions of the records that are the user's own words: the turns update_memory
    kept whose role is ``user``. A note carries no speaker (a LoCoMo note is either side of
    a conversation; a host's note may be a document), so it states nothing of the user's."""
    return [
        i
        for i, r in enumerate(records)
        if (r.kind == "turn" and r.metadata.get("role") == "user") or _given(r) is not None
    ]


def _given(r: Record) -> tuple[str, str] | None:
    """(attribute, value) of a ``fact`` record a model wrote (recall.lifecycle.extract)."""
    if r.kind != "fact":
        return None
    attribute, value = r.metadata.get("attribute"), r.metadata.get("value")
    if isinstance(attribute, str) and isinstance(value, str) and attribute and value:
        return attribute, value
    return None


@dataclass(frozen=True)
class Sentence:
    """One sentence of the user's: its record, text, time, attribute, and salient words."""

    record: int
    text: str
    at: datetime
    attribute: str | None
    asserted: bool
    tokens: frozenset[str]
    names: frozenset[str]
    #: The value a model gave (a ``fact`` record), None for the user's own words.
    given: str | None = None


@dataclass(frozen=True)
class Fact:
    """One value of one attribute: the words that mark it, the sentence that introduced
    it, the sentences that name it, and the value that replaced it (None: it holds now)."""

    attribute: str
    words: tuple[str, ...]
    intro: int  # index into UserFacts.sentences
    mentions: tuple[int, ...]  # indices into UserFacts.sentences, in time order
    superseded_by: str | None = None


@dataclass
class UserFacts:
    """One partition's user sentences, labelled, and what each attribute holds."""

    sentences: list[Sentence]
    vectors: npt.NDArray[np.float32]
    display: dict[str, str]  # token -> how the user wrote it
    user_names: frozenset[str]
    other_names: frozenset[str]
    _history: dict[str, list[Fact]] = field(default_factory=dict)
    #: The public view (recall.user.asked.profile_of), once built.
    profile: Profile | None = None

    @cached_property
    def uses(self) -> Counter[str]:
        """In how many of the user's sentences each word is."""
        return Counter(t for s in self.sentences for t in s.tokens)

    @cached_property
    def first_said(self) -> dict[str, datetime]:
        """When the user first said each word (a keyword token) in their own sentences."""
        out: dict[str, datetime] = {}
        for s in self.sentences:
            for t in s.tokens:
                if t not in out or s.at < out[t]:
                    out[t] = s.at
        return out

    @cached_property
    def attribute_array(self) -> npt.NDArray[np.object_]:
        """Each sentence's attribute (None: none), as an array to compare at once."""
        return np.array([s.attribute for s in self.sentences], dtype=object)

    @property
    def attributes(self) -> list[str]:
        """Attributes the user said anything of, sorted."""
        return sorted({s.attribute for s in self.sentences if s.attribute})

    def history(self, attribute: str) -> list[Fact]:
        """The values ``attribute`` held, oldest first; the last one holds now."""
        if attribute not in self._history:
            self._history[attribute] = _history(self, attribute)
        return self._history[attribute]

    def current(self, attribute: str) -> list[int]:
        """Record positions stating what ``attribute`` holds now: the newest sentence
        naming it first, then the one that introduced it ([] when never stated)."""
        facts = self.history(attribute)
        if not facts:
            return []
        now = facts[-1]
        newest = self.sentences[now.mentions[-1]].record
        first = self.sentences[now.intro].record
        return [newest] if newest == first else [newest, first]

    def value(self, fact: Fact) -> str:
        """The fact as the user wrote it where it was introduced: the run of capitalized
        words holding its first word ("Summit Club"), else that word."""
        given = self.sentences[fact.intro].given
        if given is not None:
            return given
        first = self.display.get(fact.words[0], fact.words[0])
        for m in _SPAN.finditer(self.sentences[fact.intro].text):
            span = m.group().split()
            while span and (span[-1] in NOT_NAMES or span[-1] in _JOINS):
                span.pop()  # "Lisbon & I": the run ends at the name
            if first in span:
                return " ".join(span)
        return first


def _salient(s: Sentence, uses: Counter[str]) -> frozenset[str]:
    if s.given is not None:
        return s.names  # a model's value: its own words, whatever else the sentence says
    return s.names | frozenset(t for t in s.tokens if uses[t] <= RARE)


@dataclass
class _Draft:
    words: tuple[str, ...]
    intro: int
    mentions: list[int]


def _history(uf: UserFacts, attribute: str) -> list[Fact]:
    order = sorted(
        (k for k, s in enumerate(uf.sentences) if s.attribute == attribute),
        key=lambda k: uf.sentences[k].at,
    )
    if any(uf.sentences[k].given is not None for k in order):
        # A model read this attribute (recall.lifecycle.extract): its answers alone.
        order = [k for k in order if uf.sentences[k].given is not None]
    uses = uf.uses
    owner: dict[str, int] = {}  # salient word -> the fact it marks
    seen: set[str] = set()
    drafts: list[_Draft] = []
    for k in order:
        s = uf.sentences[k]
        salient = _salient(s, uses)
        old = {owner[t] for t in salient if t in owner}
        new = salient - seen
        if s.asserted and new and (not old or new & s.names):
            words = sorted(new, key=lambda t: (t not in s.names, -uses[t], t))
            drafts.append(_Draft(tuple(words), k, [k]))
            for t in new:
                owner[t] = len(drafts) - 1
        else:
            for f in sorted(old):
                drafts[f].mentions.append(k)
        seen |= salient
    out = [Fact(attribute, d.words, d.intro, tuple(d.mentions)) for d in drafts]
    # What replaced each value, as the user wrote it.
    return [
        f if n + 1 == len(out) else replace(f, superseded_by=uf.value(out[n + 1]))
        for n, f in enumerate(out)
    ]


_LOCK = threading.Lock()
_JOINS = frozenset({"of", "de", "&"})
_SPAN = re.compile(r"[A-Z][\w'&-]*(?:\s+(?:of\s+|de\s+|&\s+)?[A-Z][\w'&-]*)*")
# Names the assistant calls the user by, closing a clause: "I'm sorry, Dara." / "Thanks
# Kofi!" A word opening a sentence before a comma is as often an interjection ("Ha, of
# course.", "Congratulations, Gwen!") as a name, so it is not read as one.
_VOCATIVE = re.compile(
    r"(?:,\s+|\b(?:[Hh]i|[Hh]ey|[Tt]hanks|[Ss]orry|[Cc]ongrats)\s+)([A-Z][a-z]+)(?=[.!?])"
)


def facts_of(
    derived: dict[str, object],
    records: Sequence[Record],
    space: AttributeSpace,
    analyzer: Analyzer,
) -> UserFacts:
    """The labelled sentences of the user's own records, cached in ``derived`` (the
    partition's: it is rebuilt whenever the store changes)."""
    with _LOCK:
        hit = derived.get(__name__)
    if isinstance(hit, UserFacts):
        return hit
    stmts = user_statements(records)
    pieces = [
        (i, s)
        for i in stmts
        for s in ([records[i].text] if _given(records[i]) else split_sentences(records[i].text))
    ]
    vectors, own = space.embed_scored([s for _, s in pieces])
    labels: list[str | None] = []
    if pieces:
        # A message's scores from its own text (cached like the sentences'), not from
        # the partition's vectors: a rebuild then scores only what is new.
        _, msg_scores = space.embed_scored([records[i].text for i in stmts])
        row = {i: k for k, i in enumerate(stmts)}
        scores = (
            SENTENCE_WEIGHT * own + (1 - SENTENCE_WEIGHT) * msg_scores[[row[i] for i, _ in pieces]]
        )
        labels = space.label(vectors, scores)[0]
    display: dict[str, str] = {}
    sentences: list[Sentence] = []
    said_names: set[str] = set()
    mine: set[str] = set()
    for (i, text), read in zip(pieces, labels, strict=True):
        parsed = parse(text, analyzer)
        said_names |= parsed.names
        mine |= parsed.mine
        display.update(parsed.display)
        for t, word in parsed.words:
            display.setdefault(t, word)
        given = _given(records[i])
        if given is not None:  # what the model read: its attribute, its value's words
            value = frozenset(analyzer.tokens(given[1])) or parsed.name_tokens
            parsed = parsed._replace(asserted=True, name_tokens=value)
        sentences.append(
            Sentence(
                record=i,
                text=text,
                at=records[i].created_at,
                attribute=read if given is None else given[0],
                asserted=parsed.asserted,
                tokens=parsed.tokens,
                names=parsed.name_tokens,
                given=None if given is None else given[1],
            )
        )
    addressed: set[str] = set()
    for r in records:
        if r.kind == "turn" and r.metadata.get("role") == "assistant":
            addressed |= {n for n in _VOCATIVE.findall(r.text) if n not in NOT_NAMES}
    # The user's name: one the assistant calls them by that the user never says, or one
    # they give as their own. Names the user says are other people, places, things.
    uf = UserFacts(
        sentences=sentences,
        vectors=vectors,
        display=display,
        user_names=frozenset((addressed - said_names) | mine),
        other_names=frozenset(said_names - mine),
    )
    with _LOCK:
        derived[__name__] = uf
    return uf
