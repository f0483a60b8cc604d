"""``recall profile``: the same profile as :meth:`recall.Memory.profile`, as JSON and as text
(a block per attribute, the current value first, the earlier ones marked past).

In process (CliRunner): memories embed with the HashEmbedder stand-in, so the tests compare
with the library's own answer rather than naming the attribute it picks.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import recall
from recall.cli import main
from recall.cli.profile import render_profile
from recall.models import Fact, Profile

USER = "u1"
TURNS = (
    ("I live in Lisbon and I work at Quantix.", "Nice."),
    ("I live in Porto now. I go to the Iron Temple gym.", "Got it."),
)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "memory"
    with recall.open(settings=recall.Settings(path=path)) as mem:
        for said, answer in TURNS:
            turns = [{"role": "user", "content": said}, {"role": "assistant", "content": answer}]
            mem.update_memory(turns, user_id=USER)
    return path


def _expected(path: Path, user: str = USER) -> Profile:
    with recall.open(settings=recall.Settings(path=path)) as mem:
        return mem.profile(user)


def _run(argv: list[str], path: Path) -> Result:
    return CliRunner().invoke(main, [*argv, "--path", str(path)])


def test_json_is_the_librarys_profile(folder: Path) -> None:
    expected = _expected(folder)
    assert expected.facts, "two turns of the user's own words set no attribute"
    res = _run(["profile", "--user", USER, "--json"], folder)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == expected.model_dump(mode="json")


def test_text_has_a_block_per_attribute_current_value_first(folder: Path) -> None:
    expected = _expected(folder)
    res = _run(["profile", "--user", USER], folder)
    assert res.exit_code == 0, res.output
    out = res.stdout
    count = len(expected.facts)
    assert out.startswith(f"user {USER}: {count} attribute{'' if count == 1 else 's'}\n")
    assert out == render_profile(expected)
    for attribute, now in expected.now().items():
        head = f"{attribute}: {now.value}  (since {now.since.isoformat(timespec='seconds')})"
        assert f"\n{head}\n" in out and f'"{now.statement}"' in out
        block = out.split(f"\n{head}\n", 1)[1].split("\n\n", 1)[0]
        for past in reversed(expected.history(attribute)[:-1]):
            assert f"  past: {past.value}  (since " in block
            assert f"replaced by {past.superseded_by})" in block


def test_a_user_who_said_nothing_has_an_empty_profile(folder: Path) -> None:
    assert (
        _run(["add", "A note, no statement of the user's.", "--user", "quiet"], folder).exit_code
        == 0
    )
    res = _run(["profile", "--user", "quiet"], folder)
    assert res.exit_code == 0 and "nothing the user said sets an attribute yet" in res.stdout
    res = _run(["profile", "--user", "quiet", "--json"], folder)
    assert json.loads(res.stdout) == {"user_id": "quiet", "facts": {}}
    res = _run(["profile", "--user", "nobody"], folder)  # never held: a typo, most likely
    assert res.exit_code == 1 and "holds no memory here" in res.stderr
    res = _run(["profile", "--user", " "], folder)
    assert res.exit_code == 1 and res.stderr.startswith("error: ")
    res = _run(["profile", "--user", USER], folder.parent / "missing")
    assert res.exit_code == 1 and "no memory folder" in res.stderr


def _fact(value: str, said: str, day: int, replaced: str | None) -> Fact:
    at = datetime(2026, 3, day, 9, tzinfo=UTC)
    return Fact(
        attribute="home",
        value=value,
        statement=said,
        since=at,
        last_said=at,
        record_ids=[f"r{day}"],
        superseded_by=replaced,
    )


def test_earlier_values_are_marked_past_with_what_replaced_them() -> None:
    profile = Profile(
        user_id="u9",
        facts={
            "home": [
                _fact("Lisbon", "I live in Lisbon.", 1, "Madrid"),
                _fact("Madrid", "We moved to Madrid.", 2, "Porto"),
                _fact("Porto", "I live in Porto now.", 3, None),
            ]
        },
    )
    assert render_profile(profile) == (
        "user u9: 1 attribute\n"
        "\n"
        "home: Porto  (since 2026-03-03T09:00:00+00:00)\n"
        '    "I live in Porto now."\n'
        "  past: Madrid  (since 2026-03-02T09:00:00+00:00, replaced by Porto)\n"
        '    "We moved to Madrid."\n'
        "  past: Lisbon  (since 2026-03-01T09:00:00+00:00, replaced by Madrid)\n"
        '    "I live in Lisbon."\n'
    )
