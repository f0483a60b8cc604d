"""The parts of a user's inspector page, each a pure function: data in, HTML out.

Every piece of stored or requested text passes :func:`~.page.esc`; the markup around it
is this module's own. ``live``: the page is served (links to other versions and pages, the
forms); a memory report read from disk has neither.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, time

from ...memory.inspect import ArticleDiff, Explained
from ...models import Hit, Record
from .page import esc
from .view import Params, UserView, user_href

__all__ = [
    "article_section",
    "diff_section",
    "hits_table",
    "query_section",
    "records_section",
    "short_term_section",
    "versions_section",
]


def _when(at: datetime | None) -> str:
    if at is None:
        return '<span class="muted">never</span>'
    # A record said on a day (created_at="2026-03-14") is stored at midnight: show the day.
    # Each part unbroken; a narrow cell may put the hour under the day.
    shown = f"<span>{at:%Y-%m-%d}</span>"
    if at.time() != time():
        shown += f" <span>{at:%H:%M}</span>"
    return f'<time datetime="{esc(at.isoformat())}">{shown}</time>'


def _num(value: float | int | None, digits: int = 3) -> str:
    if value is None:
        return '<span class="muted">–</span>'
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


def _td(label: str, cls: str, content: str) -> str:
    # data-label names the cell where a phone-width page stacks the table (see page.CSS).
    return f'<td class="{cls}" data-label="{esc(label)}">{content}</td>'


def _table(cls: str, head: str, rows: Iterable[str], *, empty: str) -> str:
    body = "".join(rows)
    if not body:
        return f'<p class="empty">{esc(empty)}</p>'
    return (
        f'<div class="scroll"><table class="{cls}"><thead>{head}</thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _card(anchor: str, title: str, body: str) -> str:
    return f'<section class="card" id="{anchor}"><h2>{esc(title)}</h2>{body}</section>'


def _record_rows(records: Sequence[Record], *, ids: bool = True) -> list[str]:
    rows = []
    for r in records:
        cells = [
            _td("said", "when", _when(r.created_at)),
            _td("kind", "kindcell", f'<span class="kind">{esc(r.kind)}</span>'),
            _td("text", "text wide", esc(r.text)),
        ]
        if ids:
            cells.append(_td("id", "wide", f'<span class="id">{esc(r.id)}</span>'))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return rows


def article_section(view: UserView, *, live: bool) -> str:
    """The long-term article as of the version shown, a chapter each."""
    art = view.article
    newest = view.versions[0].version if view.versions else 0
    if art.version == 0:
        meta = "Nothing promoted yet: the article starts when short-term summaries age out."
    else:
        meta = f"Version {art.version} of {newest}, written {_when(art.updated_at)}."
    if live and art.version != newest:
        meta += f' <a href="{esc(view.params.href(view.user_id, version=None))}">Newest</a>'
    chapters = "".join(
        f"<h3>{name}</h3>"
        + (f'<p class="prose">{esc(text)}</p>' if text.strip() else '<p class="empty">empty</p>')
        for name, text in art.chapters().items()
    )
    return _card("article", "Long-term article", f'<p class="meta">{meta}</p>{chapters}')


def versions_section(view: UserView, *, live: bool) -> str:
    """Every stored version of the article, newest first, with links to view and compare."""
    params = view.params
    extra = "<th>Look</th>" if live else ""
    head = (
        '<tr><th>Version</th><th>Written</th><th class="num">Tokens</th>'
        f'<th class="num">Promoted</th>{extra}</tr>'
    )
    rows = []
    for v in view.versions:
        cells = [
            _td("version", "", f"v{v.version}"),
            _td("written", "when", _when(v.updated_at)),
            _td("tokens", "num", str(v.tokens)),
            _td("promoted", "num", str(v.promoted)),
        ]
        if live:
            links = [f'<a href="{esc(params.href(view.user_id, version=v.version))}">view</a>']
            if v.version > 1:
                diff = (v.version - 1, v.version)
                links.append(f'<a href="{esc(params.href(view.user_id, diff=diff))}">diff</a>')
            cells.append(_td("look", "", " · ".join(links)))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return _card("versions", "Versions", _table("stack", head, rows, empty="No version yet."))


def _diff_lines(lines: Sequence[str]) -> str:
    spans = []
    for line in lines:
        if line.startswith(("+++", "---", "@@")):
            cls = "hunk"
        elif line.startswith("+"):
            cls = "add"
        elif line.startswith("-"):
            cls = "del"
        else:
            cls = "ctx"
        spans.append(f'<span class="{cls}">{esc(line) or " "}</span>')
    return f'<pre class="diff">{"".join(spans)}</pre>'


def diff_section(diff: ArticleDiff) -> str:
    """What changed in each chapter between two versions, as a unified diff."""
    parts = [f'<p class="meta">From version {diff.old} to version {diff.new}.</p>']
    for chapter in diff.chapters:
        parts.append(f"<h3>{esc(chapter.chapter)}</h3>")
        parts.append(
            _diff_lines(chapter.lines) if chapter.changed else '<p class="empty">unchanged</p>'
        )
    return _card("diff", f"Difference v{diff.old} → v{diff.new}", "".join(parts))


def short_term_section(view: UserView) -> str:
    """The current short-term summaries, oldest first."""
    head = "<tr><th>Said</th><th>Kind</th><th>Summary</th></tr>"
    rows = _record_rows(view.short_term, ids=False)
    body = _table("stack pairs", head, rows, empty="No short-term summary.")
    return _card("short-term", "Short-term summaries", body)


def _hidden(params: Params, *names: str) -> str:
    pairs = [(n, v) for n, v in params.items() if n in names]
    return "".join(f'<input type="hidden" name="{n}" value="{esc(v)}">' for n, v in pairs)


def _filters(view: UserView) -> str:
    params = view.params
    options = ['<option value="">every kind</option>']
    for kind, count in view.kinds.items():
        chosen = " selected" if kind in params.kinds else ""
        options.append(f'<option value="{esc(kind)}"{chosen}>{esc(kind)} ({count})</option>')
    return (
        f'<form class="row" method="get" action="{esc(user_href(view.user_id))}">'
        f'<label>Kind<select name="kind">{"".join(options)}</select></label>'
        f'<label>Said from<input type="date" name="since" value="{esc(params.since or "")}">'
        f'</label><label>Said before<input type="date" name="until" '
        f'value="{esc(params.until or "")}"></label>'
        f"{_hidden(params, 'version', 'diff', 'limit', 'q')}<button>Filter</button></form>"
    )


def _pager(view: UserView) -> str:
    page, params = view.page, view.params
    if not page.records:
        links = [f"<span>none here of {page.total}</span>"]
        if page.offset > 0:  # past the end: the way back, not another empty page
            first = esc(params.href(view.user_id, offset=0))
            links.append(f'<a href="{first}#records">First page</a>')
        return f'<nav class="pager" aria-label="pages">{"".join(links)}</nav>'
    shown = f"{page.offset + 1}–{page.offset + len(page.records)}"
    links = [f"<span>{shown} of {page.total}</span>"]
    if page.offset > 0:
        newer = esc(params.href(view.user_id, offset=max(page.offset - page.limit, 0)))
        links.append(f'<a rel="prev" href="{newer}#records">← Newer</a>')
    if page.next_offset is not None:
        older = esc(params.href(view.user_id, offset=page.next_offset))
        links.append(f'<a rel="next" href="{older}#records">Older →</a>')
    return f'<nav class="pager" aria-label="pages">{"".join(links)}</nav>'


def records_section(view: UserView, *, live: bool) -> str:
    """The user's records, newest said first: a page with its filters, or all of them."""
    head = "<tr><th>Said</th><th>Kind</th><th>Text</th><th>Id</th></tr>"
    table = _table("stack pairs", head, _record_rows(view.page.records), empty="No record matches.")
    if not live:
        meta = f'<p class="meta">{view.page.total} records, newest said first.</p>'
        return _card("records", "Records", meta + table)
    return _card("records", "Records", _filters(view) + table + _pager(view))


#: Why a hit stands above a higher fused score (Hit.reason), as the row says it.
_ABOVE = {
    "current": "the user's current statement",
    "newest": "said after those below",
    "time_window": "inside the asked time",
}


def _hit_rows(hits: Sequence[Hit]) -> list[str]:
    rows = []
    for n, h in enumerate(hits, start=1):
        fused = _num(h.score) + (' <span class="muted">keywords only</span>' if h.degraded else "")
        if h.reason:  # above a higher score: say why (Hit.reason)
            fused += f' <span class="muted reason">↑ {esc(_ABOVE[h.reason])}</span>'

        cells = [
            _td("#", "num c-rank", str(n)),
            _td("fused", "num c-fused", f"<b>{fused}</b>"),
            _td("keyword raw", "num c-leg", _num(h.keyword_score)),
            _td("keyword norm", "num c-leg", _num(h.keyword_norm)),
            _td("keyword rank", "num c-leg", _num(h.keyword_rank)),
            _td("vector raw", "num c-leg", _num(h.vector_score)),
            _td("vector norm", "num c-leg", _num(h.vector_norm)),
            _td("vector rank", "num c-leg", _num(h.vector_rank)),
            _td(
                "said",
                "when c-said",
                f'<span class="kind">{esc(h.kind)}</span> {_when(h.created_at)}',
            ),
            _td("text", "text wide c-text", esc(h.text)),
        ]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return rows


_HITS_HEAD = (
    '<tr><th rowspan="2" class="num">#</th><th rowspan="2" class="num">Fused</th>'
    '<th colspan="3" class="group">Keyword leg (BM25)</th>'
    '<th colspan="3" class="group">Vector leg</th><th rowspan="2">Said</th>'
    '<th rowspan="2">Text</th></tr><tr><th class="num">raw</th><th class="num">norm</th>'
    '<th class="num">rank</th><th class="num">raw</th><th class="num">norm</th>'
    '<th class="num">rank</th></tr>'
)


def hits_table(hits: Sequence[Hit], *, empty: str) -> str:
    """Hits with their fused score and both legs' raw and normalized scores and ranks."""
    return _table("stack hits", _HITS_HEAD, _hit_rows(hits), empty=empty)


def query_section(view: UserView, *, live: bool) -> str:
    """The query box and, for a query, its hits and the hits the relevance floor removed."""
    params = view.params
    parts = []
    if live:
        action = esc(user_href(view.user_id))
        parts.append(
            f'<form class="row" method="get" action="{action}#query" role="search">'
            f'<label class="grow">Query<input type="search" name="q" maxlength="1000" '
            f'value="{esc(params.query or "")}" placeholder="what does the memory hold about…">'
            f"</label>{_hidden(params, 'kind', 'since', 'until', 'limit')}"
            "<button>Recall</button></form>"
        )
    explained: Explained | None = view.explained
    if explained is not None:
        parts.append(f'<p class="meta">Hits for <q>{esc(explained.query)}</q>, best first.</p>')
        parts.append(hits_table(explained.hits, empty="No hit passed the relevance floor."))
        parts.append("<h3>Removed by the relevance floor</h3>")
        parts.append(hits_table(explained.floored, empty="The floor removed nothing."))
    return _card("query", "Query", "".join(parts))
