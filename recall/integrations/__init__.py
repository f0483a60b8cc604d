"""recall inside agent frameworks, each an optional extra imported only when asked for.

* :mod:`recall.integrations.langchain`: ``RecallRetriever``, a LangChain ``BaseRetriever``
  (``pip install 'recall-memory[langchain]'``).
* :mod:`recall.integrations.llamaindex`: ``RecallRetriever``, a LlamaIndex retriever
  (``pip install 'recall-memory[llamaindex]'``).

Both run :meth:`recall.Memory.deep_recall` and carry each hit's score, id, kind and date;
their async paths run the search on a worker thread, off the host's event loop. Neither
framework is imported by ``import recall`` or by this package: only by its own module.
"""

__all__: list[str] = []
