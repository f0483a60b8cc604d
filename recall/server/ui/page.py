"""The inspector's style sheet and escaping (the page shell is ``templates/base.html``).

Every page and the memory report are whole documents with the style sheet inline, so a
report opens from disk with nothing else, and the server's pages load nothing but the
login page's script: the Content-Security-Policy allows exactly this style sheet (by its
hash) and scripts of this origin, no other source of anything.
"""

from __future__ import annotations

import base64
import hashlib
import html

__all__ = ["CSS", "STYLE_HASH", "esc"]

CSS = """
:root{--fg:#1d2330;--muted:#5b6474;--bg:#f6f7f9;--card:#fff;--line:#dde1e7;--accent:#2456c9;
--add:#e6f4ea;--addfg:#17612f;--del:#fdecea;--delfg:#9c2317;--hunk:#eef2fb}
@media (prefers-color-scheme:dark){:root{--fg:#e4e7ec;--muted:#9aa3b2;--bg:#14171c;
--card:#1c2027;--line:#323844;--accent:#7aa2ff;--add:#173624;--addfg:#8fdba8;--del:#3d1c1a;
--delfg:#f4a59d;--hunk:#222a3b}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",
"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
header.top{background:var(--card);border-bottom:1px solid var(--line)}
header.top .bar{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:baseline;
max-width:1240px;margin:0 auto;padding:.75rem 1rem}
header.top .brand{font-weight:700;color:var(--fg);text-decoration:none}
header.top nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.95rem}
header.top .end{margin-left:auto}
main{max-width:1240px;margin:0 auto;padding:1rem}
a{color:var(--accent)}
h1{font-size:1.6rem;margin:.25rem 0 .75rem;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:0 0 .75rem}
h3{font-size:1.05rem;margin:1rem 0 .35rem}
section.card{background:var(--card);border:1px solid var(--line);border-radius:8px;
padding:1rem 1.1rem;margin:0 0 1rem}
.muted,.meta{color:var(--muted);font-size:.9rem}
section.card>p:first-of-type{margin-top:0}
.prose{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
.empty{color:var(--muted);font-style:italic}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{text-align:left;vertical-align:top;padding:.4rem .55rem;border-bottom:1px solid var(--line)}
th{font-weight:600;color:var(--muted);white-space:nowrap}
td.text{min-width:16rem;overflow-wrap:anywhere;white-space:pre-wrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.when{white-space:nowrap}
code,pre,.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
.id{font-size:.8rem;color:var(--muted);overflow-wrap:anywhere}
time span{white-space:nowrap}
label.grow{flex:1 1 20rem}label.grow input{width:100%}
.kind{display:inline-block;padding:0 .45rem;border-radius:999px;background:var(--hunk);
font-size:.85rem;white-space:nowrap}
pre.diff{margin:.25rem 0 0;padding:.5rem;border:1px solid var(--line);border-radius:6px;
overflow-x:auto;font-size:.85rem;line-height:1.45}
pre.diff span{display:block;white-space:pre-wrap;overflow-wrap:anywhere}
pre.diff .add{background:var(--add);color:var(--addfg)}
pre.diff .del{background:var(--del);color:var(--delfg)}
pre.diff .hunk{background:var(--hunk);color:var(--muted)}
form.row{display:flex;flex-wrap:wrap;gap:.5rem .75rem;align-items:flex-end;margin:0 0 .75rem}
form.row label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted);gap:.15rem}
input,select,button{font:inherit;font-size:1rem;padding:.4rem .55rem;border:1px solid var(--line);
border-radius:6px;background:var(--card);color:var(--fg);max-width:100%}
input[type=search],input[type=password]{min-width:min(28rem,100%)}
button{background:var(--accent);border-color:var(--accent);color:#fff;cursor:pointer}
.pager{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin-top:.6rem}
.error{border-color:var(--delfg)}
ul.users{list-style:none;padding:0;margin:0}
ul.users li{padding:.45rem 0;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
th.group{text-align:center;border-bottom:1px solid var(--line)}
table.hits td.c-text{min-width:20rem}
.notice{background:var(--add);color:var(--addfg);border-radius:6px;padding:.5rem .75rem}
form.act{display:inline;margin-left:.4rem}
button.quiet,button.danger{font-size:.85rem;padding:.1rem .45rem}
button.quiet{background:var(--card);color:var(--accent)}
button.danger{background:var(--delfg);border-color:var(--delfg)}
ol.sentences{margin:0;padding-left:1.4rem}ol.sentences li{margin:0 0 .2rem}
.acts{font-size:.85rem;white-space:nowrap}
textarea{font:inherit;width:100%;min-height:5rem;padding:.4rem .55rem;border:1px solid var(--line);
border-radius:6px;background:var(--card);color:var(--fg)}
blockquote{margin:.25rem 0 .75rem;padding:.4rem .75rem;border-left:3px solid var(--line)}
@media (max-width:640px){body{font-size:15px}main{padding:.6rem}
table.stack thead{display:none}
table.stack,table.stack tbody{display:block;width:100%}
table.stack tr{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:.1rem .6rem;
border:1px solid var(--line);border-radius:6px;margin:0 0 .6rem;padding:.45rem .6rem}
table.stack td{display:block;border:0;padding:0;min-width:0;text-align:left;white-space:normal}
table.stack td::before{content:attr(data-label);display:block;color:var(--muted);
font-size:.78rem}
table.pairs tr{grid-template-columns:repeat(2,minmax(0,1fr))}
header.top .end{order:1}header.top nav{order:2;flex-basis:100%;font-size:.9rem}
table.stack td.wide{grid-column:1/-1}
table.stack td.text{white-space:pre-wrap;min-width:0}
table.hits td.c-said{grid-column:span 1;order:1}table.hits td.c-text{order:2;min-width:0}
table.hits td.c-leg{order:3}
section.card{padding:.75rem;border-radius:6px}h1{font-size:1.3rem}
td.text{min-width:12rem}input[type=search],input[type=password]{min-width:0;width:100%}
form.row label{flex:1 1 9rem}}
"""

#: The Content-Security-Policy source that allows the inline style sheet and nothing else.
STYLE_HASH = "'sha256-{}'".format(
    base64.b64encode(hashlib.sha256(CSS.encode("utf-8")).digest()).decode("ascii")
)


def esc(value: object) -> str:
    """``value`` as HTML text: ``<``, ``>``, ``&`` and both quotes escaped (attributes too)."""
    return html.escape(str(value), quote=True)
