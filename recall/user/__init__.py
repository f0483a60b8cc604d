"""The model of the user: what the user's own words say of them, and what holds now.

One concept, one package: which attribute a sentence or a question is about, the values
each attribute held and which one holds now, the facts the article states and which of
them are durable. It sits above :mod:`recall.index` (it reads the partitions and the
embedder) and below :mod:`recall.lifecycle` (which reads facts while it rewrites the
article); recall.index never imports it: the facade gives the retriever a
:data:`USER_READER` (a :class:`recall.index.user_model.UserModel`, the small protocol
object the retriever is built with).

A map of the package:

- **What is true now (by labelled examples)**: :mod:`.attributes` (which attribute a text
  is about: the nearest of the labelled examples in ``attributes.tsv``, their vectors
  shipped in ``attributes.npz``), :mod:`.now` and :mod:`.now_parse` (the user's sentences
  labelled by attribute, the values each attribute held, which holds now), :mod:`.asked`
  (which attribute a question asks, its current statements, the public
  :class:`~recall.models.Profile`), :mod:`.asker` (a question naming the user in the
  third person, searched for in the first), :mod:`.novelty` (a hit dated by the newest
  thing it names, as the user first said it), :mod:`.reader` (:data:`USER_READER`, what
  the retriever calls).
- **The older cue-word reading**: :mod:`.slots` and :mod:`.slot_cues` (ten slots by cue
  words, a question about the present or the past), :mod:`.superseded` (which texts a newer
  one supersedes), :mod:`.present` (a present-tense question's newest statement first,
  when no current statement leads).
- **The article's facts**: :mod:`.article_facts` (facts read from the article's sentences,
  and what a newer one supersedes), :mod:`.durable` (facts that last: diet, allergies,
  health, family, job).

The memory block's ``## Now`` view renders this model; it stays with the other renderers
of the block in :mod:`recall.context.current`.
"""

from .reader import USER_READER

__all__ = ["USER_READER"]
