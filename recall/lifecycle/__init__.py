"""The memory lifecycle: conversation states to summaries, promotion, the article.

A map of the package, in the order ``update_memory`` runs it:

- **In**: :mod:`.pipeline` (update_memory, its journal and :mod:`.worker`), :mod:`.states`
  (conversation states validated and flattened into turns), :mod:`.privacy` (turns the
  user asked not to keep), :mod:`.result` (what a call answers); ``recall ingest`` reads
  files with :mod:`.chatlog`, :mod:`.ingest` and :mod:`.locomo`.
- **Short term**: :mod:`.summarize` (summarizers), :mod:`.extractive` (the offline one's
  pure functions), :mod:`.answer` (the model's ``{"answer", "summary"}``),
  :mod:`.summary_sections` (the 8-section summary), :mod:`.tiers` (the records each tier holds).
- **Long term**: :mod:`.promote` (the oldest summaries become the next article version),
  :mod:`.reconstruct` (cognitive reconstruction), :mod:`.article` (the three chapters);
  the offline reconstructor reads with :mod:`.reading` and :mod:`.sentences`, keeps with
  :mod:`.keep`, routes with :mod:`.routing` and :mod:`.examples`, supersedes with
  :mod:`recall.user.article_facts`, protects :mod:`recall.user.durable` facts, dates with
  :mod:`.said` and retells in the AI's voice (:mod:`.voice`, :mod:`.voice_zh`, :mod:`.grammar`).
- **Corrections**: :mod:`.corrections` (forget, edit, roll back), :mod:`.forget` (a fact
  out of every tier, pure functions).
"""

__all__: list[str] = []
