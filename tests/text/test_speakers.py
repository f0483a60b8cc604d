"""The speaker labels of a stored exchange, read in one place."""

from __future__ import annotations

from recall.text.speakers import label_of, user_lines, without_labels

EXCHANGE = "\n".join(
    [
        "User: Moved to Ghent on Friday.",
        "Assistant: Welcome to Ghent!",
        "用户：搬到厦门了。",
        "助手：恭喜！",
    ]
)


def test_label_of_reads_the_speaker_and_keeps_the_label_as_written() -> None:
    assert label_of("User: hi") == ("User: ", False)
    assert label_of("  assistant:  sure") == ("  assistant:  ", True)
    assert label_of("助手：好的") == ("助手：", True)
    assert label_of("AI: noted") == ("AI: ", True)
    assert label_of("Userland: a word, not a label") == ("", False)
    assert label_of("no label here") == ("", False)


def test_user_lines_are_the_users_words_else_the_whole_text() -> None:
    assert user_lines(EXCHANGE) == ["Moved to Ghent on Friday.", "搬到厦门了。"]
    assert user_lines("A note with no speaker.") == ["A note with no speaker."]
    only_reply = "Assistant: Noted."
    assert user_lines(only_reply) == [only_reply]  # no user line: the text as it is


def test_without_labels_keeps_the_lines() -> None:
    out = without_labels(EXCHANGE)
    assert "User" not in out and "助手" not in out
    assert out.count("\n") == EXCHANGE.count("\n")
    assert "Ghent" in out and "厦门" in out
