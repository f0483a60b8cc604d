"""The memory lifecycle: conversation states to summaries, promotion, the article."""

__all__: list[str] = []
