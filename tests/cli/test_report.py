"""``recall memory report``: one user's memory as one static, self-contained HTML file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import recall
from recall.cli import main

USER = "acme:bob"
SCRIPT = "<script>alert('pwned')</script> & <b>bold</b> about the billing queue"
NOTES = (
    "Priya owns the on-call rota from April.",
    "Deploys go out on Tuesdays after the 10:00 stand-up.",
    "The billing queue backs up when invoices-v2 retries.",
)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A memory with two article versions, a summary and notes, one of them markup."""
    path = tmp_path / "memory"
    settings = recall.Settings(
        path=path, vector_partitions=4, short_term_capacity=2, promote_count=2
    )
    with recall.open(settings=settings) as mem:
        mem.update_memory("My name is Ottoline. I am allergic to penicillin.", user_id=USER)
        mem.update_memory("We renamed the billing queue to invoices-v2.", user_id=USER)
        mem.update_memory("The staging cluster moved to node pool blue-7.", user_id=USER)
        mem.edit_fact(USER, "penicillin", "amoxicillin")
        for month, text in enumerate(NOTES, start=1):
            mem.add(text, user_id=USER, created_at=f"2026-{month:02d}-10")
        mem.add(SCRIPT, user_id=USER, created_at="2026-06-01")
        mem.add("Eve's secret project is Nightjar.", user_id="beta:eve")
    return path


def _report(folder: Path, out: Path, *extra: str) -> str:
    args = ["memory", "report", "--user", USER, "--out", str(out), "--path", str(folder)]
    res = CliRunner().invoke(main, [*args, *extra])
    assert res.exit_code == 0, res.output
    assert f"wrote {out}" in res.output
    return out.read_text(encoding="utf-8")


def test_the_report_is_one_self_contained_file(folder: Path, tmp_path: Path) -> None:
    html = _report(folder, tmp_path / "report.html")
    assert html.startswith("<!doctype html>") and "<style>" in html
    # Nothing to fetch, nothing to run, nowhere to go.
    assert not re.search(r"https?://", html)
    assert not re.search(r"<(script|link|img|iframe|form)\b", html)
    assert " src=" not in html and " href=" not in html
    for text in NOTES:
        assert text in html
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt; &amp; &lt;b&gt;bold" in html
    assert "Nightjar" not in html  # another user's memory
    assert ">v2<" in html and ">v1<" in html  # every version listed
    assert "Version 2 of 2" in html and "amoxicillin" in html  # the newest article
    assert "Difference v1 → v2" in html  # the last two versions compared
    assert re.search(r'<span class="del">-[^<]*penicillin', html)
    assert "The staging cluster moved" in html  # a short-term summary
    assert html.count('data-label="text"') >= len(NOTES) + 1
    assert 'id="query"' not in html  # no query asked


def test_a_query_adds_its_hits_and_the_floored(folder: Path, tmp_path: Path) -> None:
    html = _report(folder, tmp_path / "q.html", "--query", "who owns on-call")
    query = html.split('id="query"')[1].split("</section>")[0]
    assert "Priya owns the on-call rota" in query
    assert "Removed by the relevance floor" in query
    assert 'data-label="keyword raw"' in query and 'data-label="vector rank"' in query
    assert "<form" not in html


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--user", "acme:nobody"], "holds no memory"),
        (["--user", USER, "--query", "x" * 1001], "1001 characters"),
    ],
)
def test_errors_are_one_line(folder: Path, tmp_path: Path, args: list[str], says: str) -> None:
    out = tmp_path / "never.html"
    res = CliRunner().invoke(
        main, ["memory", "report", *args, "--out", str(out), "--path", str(folder)]
    )
    assert res.exit_code == 1 and res.output.startswith("error: ") and says in res.output
    assert not out.exists()


def test_an_unwritable_out_is_one_line(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "folder" / "report.html"
    res = CliRunner().invoke(
        main, ["memory", "report", "--user", USER, "--out", str(out), "--path", str(folder)]
    )
    assert res.exit_code == 1 and res.output.startswith("error: cannot write the report")
    assert "--out" in res.output and "Traceback" not in res.output
