"""A phone on the network (issue 47, items 1, 3 and 9): a client at 127.0.0.2, through a proxy that
listens there and connects from there, so the server sees a phone and the page's address is not
the QR's. It joins and plays; a page whose socket the server refuses says so in its language; the
page speaks that language (`<html lang>`, no English of Streamlit's) and its console has no 404;
and one phone takes at most two seats, the host deciding past that."""

from __future__ import annotations

import os
import socket
import threading
from contextlib import contextmanager

from playwright.sync_api import expect

from engine import i18n, tables
from tests.browser.conftest import host_menu
from tests.faults.proxy import Proxy
from tests.forwarder import pipe

WAIT = 20_000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@contextmanager
def server_store(srv):
    """This process plays in the server's own database (`tables`)."""
    before = os.environ.get("SOBREMESA_DATA")
    os.environ["SOBREMESA_DATA"] = srv.env["SOBREMESA_DATA"]
    tables.reset()
    try:
        yield
    finally:
        os.environ["SOBREMESA_DATA"] = before or ""
        tables.reset()


def watched(page) -> list[str]:
    """What went wrong on the page: every response the server answered 404, and console errors."""
    seen: list[str] = []
    page.on("response", lambda r: seen.append(f"404 {r.url}") if r.status == 404 else None)
    page.on("console", lambda m: seen.append(m.text) if m.type == "error" else None)
    return seen


def test_a_phone_at_another_address_of_the_laptop_joins_and_plays_in_its_language(serve, browser):
    srv = serve("app.py")
    proxy = Proxy(srv.port)  # the phone opens http://127.0.0.2:<port>: the laptop's other address
    try:
        with server_store(srv):
            room = tables.create_room("pebbles", language="es", seed=3)
            phone = browser.new_context(**PHONE, locale="es-ES").new_page()
            errors = watched(phone)
            phone.goto(f"{proxy.url}/play?room={room.code}")
            assert phone.evaluate("document.documentElement.lang") == "es"
            name = phone.get_by_label(i18n.translate("es", "Your name"))
            name.fill("Ana")
            name.focus()
            expect(phone.get_by_text("Press Enter", exact=False)).to_be_hidden()  # Streamlit's English
            phone.get_by_role("button", name=i18n.translate("es", "Take a seat")).click()
            expect(phone.locator(".sm-stage-root .sm-phone")).to_be_visible(timeout=WAIT)  # seated
            tables.join(room.code, "Bo")
            tables.start(room.code, room.host_token)
            drop = phone.locator(".sm-stage-root [data-move]").first
            expect(drop).to_be_visible(timeout=WAIT)  # the stage's socket opened from this address
            before = tables.view(room.code)["version"]
            drop.click()
            expect(phone.locator(".sm-stage-root [data-move]")).to_have_count(0, timeout=WAIT)
            assert tables.view(room.code)["version"] > before and 0 not in tables.view(room.code)["waiting_for"]
            assert phone.evaluate("document.documentElement.lang") == "es"
            assert not [e for e in errors if "404" in e], errors
    finally:
        proxy.close()


@contextmanager
def origin_mangler(port: int, listen: str = "127.0.0.3"):
    """A proxy that gets one thing wrong: it passes every request on as it is, but gives the stage's
    socket a foreign Origin (as a reverse proxy that rewrites headers would). The server refuses
    that socket; Streamlit's own, and the page, are fine."""
    server = socket.socket()
    server.bind((listen, 0))
    server.listen(32)
    sockets = [server]

    def serve_one(client):
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(65536)
            if not chunk:
                return
            head += chunk
        if head.startswith(b"GET /stage/"):
            lines = head.split(b"\r\n")
            head = b"\r\n".join(
                b"Origin: http://games.elsewhere.example" if ln.lower().startswith(b"origin:") else ln for ln in lines
            )
        upstream = socket.socket()
        upstream.bind((listen, 0))
        try:
            upstream.connect(("127.0.0.1", port))
        except OSError:  # the server stopped first (a page's last request at the test's end)
            upstream.close()
            client.close()
            return
        sockets.extend((client, upstream))
        upstream.sendall(head)
        threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
        pipe(client, upstream)

    def accept():
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            threading.Thread(target=serve_one, args=(client,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://{listen}:{server.getsockname()[1]}"
    finally:
        for s in sockets:
            try:
                s.close()
            except OSError:
                pass


def test_a_page_whose_socket_is_refused_says_so_with_the_link_to_open(serve, browser):
    srv = serve("app.py")
    with server_store(srv), origin_mangler(srv.port) as url:
        room = tables.create_room("pebbles", language="it", seed=3)
        ana = tables.join(room.code, "Ana")
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{url}/play?room={room.code}&seat=0&token={ana.token}")
        said = phone.get_by_test_id("unreachable")
        expect(said).to_be_visible(timeout=WAIT)
        assert phone.evaluate("document.documentElement.lang") == "it"
        expect(said).to_contain_text(
            i18n.translate("it", "This phone cannot reach the game. Open the link on the shared screen again:")
        )
        link = said.get_by_role("link")
        assert f"/{room.code}" in link.inner_text()  # as the shared screen shows it
        href = link.get_attribute("href")
        assert href.endswith(f"/play?room={room.code}&seat=0&token={ana.token}") and not href.startswith(url)
        assert phone.evaluate(f"window.__sobremesaPushRooms['{room.code}'].unreachable")


def test_one_phone_takes_two_seats_and_the_host_lets_a_third_in(serve, browser):
    """One phone once took every seat with a fresh cookie each time. Its third join is refused in
    words, and reaches the host as a request: a shared tablet, or a class behind one address."""
    srv = serve("app.py")
    proxy = Proxy(srv.port)
    try:
        host = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        host.goto(srv.url + "/")
        host.get_by_role("button", name="Create the room").click()
        expect(host.get_by_text("Join Dixit")).to_be_visible(timeout=WAIT)
        code = host.url.split("room=")[1].split("&")[0]
        phones = []
        for name in ("Ana", "Bo", "Cy"):
            page = browser.new_context(**PHONE).new_page()  # a fresh cookie each time: one phone, three tabs
            page.goto(f"{proxy.url}/play?room={code}")
            page.get_by_label("Your name").fill(name)
            page.get_by_role("button", name="Take a seat").click()
            phones.append(page)
        for page, name in zip(phones[:2], ("Ana", "Bo"), strict=True):
            expect(page.get_by_text(f"You're in as {name}")).to_be_visible(timeout=WAIT)
        cy = phones[2]
        expect(cy.get_by_text("This phone already has a seat at this table.")).to_be_visible(timeout=WAIT)
        expect(cy.get_by_text("The host was asked to let you in as Cy: wait here.")).to_be_visible(timeout=WAIT)
        expect(host.get_by_test_id("waiting-badge")).to_have_text("🙋 1 waiting", timeout=WAIT)  # in a corner
        host_menu(host)  # the host answers in the host menu (Esc), or on the remote
        expect(host.get_by_text("asks for a seat from a phone that has one here already", exact=False)).to_be_visible(
            timeout=WAIT
        )
        host.get_by_role("button", name="Let them in").click()
        expect(cy.get_by_text("You're in as Cy")).to_be_visible(timeout=WAIT)
        expect(host.locator(".sm-seat", has_text="Cy")).to_be_visible(timeout=WAIT)
    finally:
        proxy.close()
