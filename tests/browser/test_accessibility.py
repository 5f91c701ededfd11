"""axe-core over the pages everyone meets first: the start page, the rules and Statistics (the archive,
the players' charts and a game's charts), in English, Spanish and Italian. No serious or critical
violation (WCAG 2.1 AA: contrast, names, labels, landmarks). axe-core comes with
axe-playwright-python: nothing is fetched at run time."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from engine import i18n
from tests.browser.conftest import ROOT, StreamlitServer

WAIT = 30_000
LOCALES = {"en": "en-GB", "es": "es-ES", "it": "it-IT"}
BLOCKING = ("serious", "critical")
CHART = "[data-testid='stVegaLiteChart']"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module, on an archive of a few demo games (every family: charts to draw)."""
    data = tmp_path_factory.mktemp("a11y")
    env = {**os.environ, "SOBREMESA_DATA": str(data)}
    env.pop("SOBREMESA_DATABASE_URL", None)
    demo = [sys.executable, "-m", "engine.demo", "--games", "6", "--seed", "3"]
    made = subprocess.run(demo, cwd=ROOT, env=env, capture_output=True, text=True)
    assert made.returncode == 0, f"engine.demo exited {made.returncode}:\n{made.stdout[-2000:]}\n{made.stderr[-4000:]}"
    srv = StreamlitServer("app.py", env, log_path=data / "server.log").start()
    yield srv
    srv.stop()


def report(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} [{v['helpUrl']}]")
        for node in v["nodes"][:8]:
            lines.append(f"    {' > '.join(map(str, node['target']))}")
            lines.append(f"      {node['html'][:200]}")
            for check in node.get("any", []) + node.get("all", []) + node.get("none", []):
                lines.append(f"      - {check['message']}")
    return "\n".join(lines)


def assert_accessible(page, where: str) -> None:
    results = Axe().run(page).response
    blocking = [v for v in results["violations"] if v["impact"] in BLOCKING]
    assert not blocking, f"axe-core on {where}:\n{report(blocking)}"


def open_page(browser, srv: StreamlitServer, lang: str, path: str):
    page = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900}).new_page()
    srv.as_laptop(page)  # the laptop's browser: Statistics whole, the start page with its uploader
    page.goto(srv.url + path)
    # Every one of these pages ends with its way back (or on) from the start: the run is drawn.
    expect(page.get_by_test_id("stPageLink").first).to_be_visible(timeout=WAIT)
    return page


def settled(page) -> None:
    """The script run is over (Streamlit's running indicator is gone), so axe reads the page as drawn."""
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=WAIT)


@pytest.mark.parametrize("lang", LOCALES)
def test_the_start_page_has_no_serious_violation(server, browser, lang):
    page = open_page(browser, server, lang, "/")
    expect(page.get_by_role("button", name=i18n.translate(lang, "Create the room"))).to_be_visible(timeout=WAIT)
    settled(page)
    assert_accessible(page, f"the start page ({lang})")


@pytest.mark.parametrize("lang", LOCALES)
def test_the_rules_have_no_serious_violation(server, browser, lang):
    page = open_page(browser, server, lang, "/rules?game=dixit")
    expect(page.get_by_text(i18n.translate(lang, "How to play"))).to_be_visible(timeout=WAIT)
    settled(page)
    assert_accessible(page, f"the rules ({lang})")


@pytest.mark.parametrize("lang", LOCALES)
def test_statistics_has_no_serious_violation(server, browser, lang):
    page = open_page(browser, server, lang, "/stats")
    expect(page.locator(".sm-archive tbody tr").first).to_be_visible(timeout=WAIT)
    settled(page)
    assert_accessible(page, f"Statistics, the archive ({lang})")
    tabs = page.get_by_role("tab")
    for label in (i18n.translate(lang, "Players"), "Dixit"):  # the players' charts, then a family's
        tab = tabs.filter(has_text=label).first
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true", timeout=WAIT)
        expect(page.locator(f"[role='tabpanel']:not([hidden]) {CHART}").first).to_be_visible(timeout=WAIT)
        settled(page)
        assert_accessible(page, f"Statistics, the tab {label!r} ({lang})")
