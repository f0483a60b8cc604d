"""The 8-section structured summary: its headings, budget shares and routing rules.

The context builder compacts history into these sections (docs/design.md); both
summarizers produce them, the offline one by routing sentences with the rules here.
"""

from __future__ import annotations

from pydantic import BaseModel

from .extractive import Unit

__all__ = ["SECTIONS", "StructuredSummaryOut", "allocate", "route"]

#: The 8 sections of a structured summary (docs/design.md).
SECTIONS = (
    "Primary Request and Intent",
    "Key Technical Concepts",
    "Files and Code Sections",
    "Errors and fixes",
    "Problem Solving",
    "All user messages",
    "Pending Tasks",
    "Current Work",
)
# Share of the budget each section may fill; Problem Solving also gets what others leave.
_SHARES = (0.12, 0.06, 0.14, 0.12, 0.18, 0.16, 0.10, 0.12)


def allocate(room: int, demand: list[int]) -> list[int]:
    """Split ``room`` by :data:`_SHARES`; what a section does not need goes to the others."""
    alloc = [0] * len(demand)
    open_ = set(range(len(demand)))
    left = room
    while open_ and left > 0:
        weight = sum(_SHARES[k] for k in open_)
        offer = {k: int(left * _SHARES[k] / weight) for k in open_}
        done = {k for k in open_ if demand[k] - alloc[k] <= offer[k]}
        if not done:  # everyone wants more than offered: hand out the rest and stop
            for k in open_:
                alloc[k] += offer[k]
            break
        for k in done:
            left -= demand[k] - alloc[k]
            alloc[k] = demand[k]
        open_ -= done
    return alloc


_ERROR_WORDS = ("error", "exception", "traceback", "failed", "failure", "bug", "fix", "crash")
_ERROR_WORDS_ZH = ("错误", "报错", "异常", "失败", "修复", "崩溃")
_PENDING_WORDS = ("todo", "next", "pending", "remaining", "still need", "later", "will ")
_PENDING_WORDS_ZH = ("待办", "下一步", "还需要", "稍后", "接下来", "未完成")


def route(units: list[Unit]) -> list[list[Unit]]:
    """Candidate units per section, by simple rules (a unit may fit several)."""
    picks: list[list[Unit]] = [[] for _ in SECTIONS]
    if not units:
        return picks
    first_user = min((u.turn for u in units if u.role == "user"), default=units[0].turn)
    last_turns = sorted({u.turn for u in units})[-2:]
    for u in units:
        low = u.text.lower()
        if u.turn == first_user:
            picks[0].append(u)
        if u.paths or "```" in u.text or low.startswith(("def ", "class ", "import ")):
            picks[2].append(u)
        if any(w in low for w in _ERROR_WORDS) or any(w in u.text for w in _ERROR_WORDS_ZH):
            picks[3].append(u)
        if u.role == "user":
            picks[5].append(u)
        if any(w in low for w in _PENDING_WORDS) or any(w in u.text for w in _PENDING_WORDS_ZH):
            picks[6].append(u)
        if u.turn in last_turns:
            picks[7].append(u)
        if u.role != "user":
            picks[4].append(u)
    return picks


class StructuredSummaryOut(BaseModel):
    """The LLM's reply for the 8-section summary (one field per section)."""

    primary_request_and_intent: str
    key_technical_concepts: str
    files_and_code_sections: str
    errors_and_fixes: str
    problem_solving: str
    all_user_messages: str
    pending_tasks: str
    current_work: str

    def render(self) -> str:
        """The sections as markdown, headings in :data:`SECTIONS` order."""
        values = list(self.model_dump().values())
        return "\n\n".join(
            f"## {h}\n{(v or '').strip() or '- (none)'}"
            for h, v in zip(SECTIONS, values, strict=True)
        )
