"""The memory lifecycle: conversation states to summaries, promotion, the article."""
