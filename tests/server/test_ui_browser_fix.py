"""Corrections in a real browser (chromium, headless, as tests/server/test_ui_browser.py
drives it, over a memory of this module's own): log in, forget a record and edit a sentence
of the article from the user page, through each confirmation page, and see the change."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page
from test_ui_browser import ARTIFACTS, Watch, _login, base_url, browser, mem, page
from test_ui_seed import BOB

import recall

pytestmark = pytest.mark.slow  # a browser and a server
__all__ = ["base_url", "browser", "mem", "page"]  # the fixtures, shared


def test_forget_a_record_and_edit_a_fact_from_the_page(
    page: tuple[Page, Watch], base_url: str, mem: recall.Memory
) -> None:
    tab, _ = page
    _login(tab, base_url)
    tab.goto(f"{base_url}/ui/users/{BOB}")
    row = tab.locator("#records tbody tr", has_text="Priya owns the on-call rota")
    assert row.count() == 1
    row.get_by_role("button", name="forget").click()
    tab.wait_for_url("**/ui/forget/**")
    assert "Priya owns the on-call rota" in tab.locator("#confirm").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)  # the confirmation page, for docs/img (docs/inspector.md)
    tab.screenshot(path=str(ARTIFACTS / "ui-confirm-forget-1280.png"))
    with tab.expect_navigation():
        tab.get_by_role("button", name="Forget this record").click()
    assert tab.url.endswith("#records") and "notice=record-forgotten" in tab.url
    assert "The record was forgotten" in tab.locator("#notice").inner_text()
    tab.locator("#records").screenshot(path=str(ARTIFACTS / "ui-records-forget-1280.png"))
    assert "Priya" not in tab.locator("#records").inner_text()
    assert not any("Priya" in r.text for r in mem.records(BOB))

    version = mem.long_term(BOB).version
    sentence = tab.locator("#article ol.sentences li", has_text="Ottoline").first
    sentence.get_by_role("link", name="edit this sentence").click()
    tab.wait_for_url("**/ui/edit/**")
    tab.fill("textarea[name=new]", "The user's name is Ottoline Quarrington.")
    tab.screenshot(path=str(ARTIFACTS / "ui-confirm-edit-1280.png"))
    with tab.expect_navigation():
        tab.get_by_role("button", name="Replace").click()
    assert tab.url.endswith("#article")
    assert "Ottoline Quarrington" in tab.locator("#article").inner_text()
    assert mem.long_term(BOB).version == version + 1
