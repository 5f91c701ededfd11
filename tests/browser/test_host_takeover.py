"""When another tab takes the host controls over (the start page on the laptop), the old host tab's
panel closes at once, without a reload, and says why."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import host_menu
from tests.browser.test_security_routes import tables_call

WAIT = 20_000


def test_the_old_host_tab_closes_its_panel_when_another_takes_over(serve, browser):
    srv = serve("app.py")
    host = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
    host.goto(srv.url + "/")
    host.get_by_role("button", name="Create the room").click()
    host_menu(host)  # Esc on the wall (issue 50)
    expect(host.get_by_text("Host controls", exact=True)).to_be_visible(timeout=WAIT)
    code = host.url.split("room=")[1].split("&")[0]
    host.evaluate("window.__sameDocument = true")
    tables_call(srv, f"len(tables.renew_host_token('{code}'))")  # another tab on the laptop takes over
    expect(host.get_by_text("no longer has the host controls")).to_be_visible(timeout=WAIT)
    expect(host.get_by_text("Host controls", exact=True)).to_have_count(0)
    assert host.evaluate("window.__sameDocument === true")  # a push reran the page: no reload
    expect(host.locator(".sm-lobby")).to_be_visible()  # the wall stays, now as any wall
