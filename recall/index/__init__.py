"""The two derived index legs (keyword, vector) and how their scores are fused.

A map of the package, in the order a query meets it:

- **Specs and models**: :mod:`.spec` (what an index is built with, its fingerprint),
  :mod:`.embed` (the embedder protocol and the packaged models: :mod:`.onnx_minilm`,
  :mod:`.use_onnx`, :mod:`.model_files`), :mod:`.own` (your own embedder),
  :mod:`.fanout` and :mod:`.query_front` (embedding side by side, once per query).
- **Keeping the index in step with the store**: :mod:`.sync`, :mod:`.vector` (Chroma),
  :mod:`.chroma`, :mod:`.chroma_host` (Chroma in a child process), :mod:`.layout`,
  :mod:`.integrity`, :mod:`.recent`, :mod:`.purge`; offline: :mod:`.rebuild`
  (``recall reindex``), :mod:`.compare` (``recall check``).
- **Answering a query**: :mod:`.retriever` (deep_recall) over a user's cached
  :mod:`.partitions`; the legs :mod:`.keyword` (BM25) and :mod:`.vector` (or :mod:`.cold`);
  :mod:`.fuse` (pure fusion), :mod:`.crosslang`, :mod:`.neighbours` (thread neighbours' scores),
  :mod:`.window` (time windows), :mod:`.floor` (the relevance floor), :mod:`.hits` (the
  final order).
- **The user model, by protocol**: :mod:`.user_model` (what the retriever asks of the model
  of the user: the statements a question's answer leads with, the profile). Its
  implementation lives in :mod:`recall.user`, a layer above; the facade gives it to the
  retriever, so this package never imports it.
"""

__all__: list[str] = []
