"""The suite's own Chromium (conftest.launch_chromium): Playwright's disabled features kept, ours
added, and a new context's window opens no omnibox popups (0.9 s of a core each)."""

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, DISABLED_FEATURES, browsers_disabled_features


def test_the_suites_chromium_keeps_playwrights_features_and_opens_no_omnibox_popups(browser):
    session = browser.new_browser_cdp_session()
    page = browser.new_context().new_page()
    page.goto("data:text/html,<p>hi</p>")
    page.wait_for_timeout(500)
    urls = [t["url"] for t in session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]]
    assert not [u for u in urls if u.startswith("chrome://omnibox-popup")], urls
    assert any(u.startswith("data:") for u in urls), urls

    suites = [f for f in browsers_disabled_features() if set(DISABLED_FEATURES) <= f]
    # Playwright's own list, from a Chromium started its way
    plain = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    theirs = [f for f in browsers_disabled_features() if f and not set(DISABLED_FEATURES) <= f]
    plain.close()
    assert suites and theirs and "PaintHolding" in theirs[0]  # one of Playwright's (its issue 28023)
    assert all(theirs[0] <= f for f in suites), (theirs[0], suites)
