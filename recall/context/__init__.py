"""The context builder: what the model sees, within token budgets.

Its modules, in the order a context is made: ``inputs`` (settings, texts and the token
counter checked), ``budget`` (pure token fits and usage levels), ``usage`` (warnings against
the model's window, with a cooldown), ``tool_calls``, ``per_turn`` and ``session`` (the
conversation, tokens counted once, per-turn summaries sent to memory), ``proposal`` (the
model proposes a deep recall, the user consents), ``restore``, ``quality`` and ``compaction``
(older history summarized and checked, key items put back), ``ranking`` (the one similarity
+ confidence blend), ``facts`` and ``memory_block`` (what memory to show; ``current``
renders its ``## Now`` from the model of the user in :mod:`recall.user`), ``daily_log`` and
``awareness`` (the sources of those sections), ``built`` (result types and renderers),
``system_sections`` and ``conversation`` (the pure parts of a build) and ``builder``
(:class:`~recall.context.builder.ContextBuilder`, one step per part of the context).
"""

# The names live in the modules above; recall re-exports the public ones at the top.
__all__: list[str] = []
