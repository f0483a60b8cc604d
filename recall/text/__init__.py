"""Text: tokenizing, keyword analyzers, passages and token counting."""
