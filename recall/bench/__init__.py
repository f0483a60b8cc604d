"""``recall bench``: the retrieval benchmark harness, shipped with the package.

The stages, each a module:

- :mod:`~recall.bench.data`: the dataset contract (BEIR's corpus / queries / qrels, plus the
  user of every document and query);
- loaders: :mod:`~recall.bench.locomo` (through the library's LoCoMo parser,
  :mod:`recall.lifecycle.locomo`), :mod:`~recall.bench.memdaily`,
  :mod:`~recall.bench.scifact`, :mod:`~recall.bench.synthetic` (seeded, needs no data);
- :mod:`~recall.bench.metrics`: recall@k, MRR, nDCG as pure functions;
- :mod:`~recall.bench.baseline`: the LangChain EnsembleRetriever recipe, the peer baseline;
- :mod:`~recall.bench.runner` (every mode on one index) and :mod:`~recall.bench.scale`
  (1k to 100k records, one process per size);
- :mod:`~recall.bench.output` (JSON with versions and git commit, PNG plots) and
  :mod:`~recall.bench.cli`, the click command ``bench``.

Only the package's core dependencies are imported at module level: a plain install runs
``recall bench``. The ``bench`` extra's packages are imported where they are used: the
baseline's (``rank_bm25``, MiniLM on ``sentence_transformers``), skipped with a one-line
notice when missing unless ``--baseline`` insists, and ``matplotlib`` (the plots; without
it the JSON is still written). torch is imported only when a chosen spec, the baseline or
``--scale`` runs on it. The scripts that are not
part of ``recall bench`` (ablation, latency and throughput runs, markdown tables) stay in
the repository's ``benchmarks/`` folder.
"""

from .data import Dataset, DatasetError

__all__ = ["Dataset", "DatasetError"]
