"""The two derived index legs (keyword, vector) and how their scores are fused."""

__all__: list[str] = []
