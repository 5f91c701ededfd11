"""Attacks from a phone on the network, against a real server. The phone is a client whose source
address is 127.0.0.2: the server treats only 127.0.0.1 and ::1 as this computer. Nothing here
leaves the loopback range."""

from __future__ import annotations

import contextlib
import http.client
import time
from pathlib import Path

from playwright.sync_api import expect
from streamlit.web.server.starlette.starlette_app_utils import generate_xsrf_token_string

from tests.browser.test_accessibility import settled
from tests.stream import StreamSession, bound_socket

WAIT = 20_000
PHONE = "127.0.0.2"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def upload(port: int, session: str, size: int, source: str = PHONE, cookies: dict | None = None) -> int:
    """PUT one file of `size` bytes into `session`, with an XSRF cookie and header the sender made
    itself (Streamlit's double-submit check compares the two). Returns the HTTP status."""
    xsrf = generate_xsrf_token_string()
    boundary = "sobremesaboundary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\n'
        "Content-Type: application/zip\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    jar = {"_streamlit_xsrf": xsrf, **(cookies or {})}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.sock = bound_socket(port, source)
    conn.putrequest("PUT", f"/_stcore/upload_file/{session}/attack-{time.monotonic_ns()}")
    conn.putheader("Content-Type", f"multipart/form-data; boundary={boundary}")
    conn.putheader("Content-Length", str(len(head) + size + len(tail)))
    conn.putheader("X-Xsrftoken", xsrf)
    conn.putheader("Cookie", "; ".join(f"{k}={v}" for k, v in jar.items()))
    conn.endheaders()
    try:
        conn.send(head)
        chunk = b"\0" * (1 << 20)
        for start in range(0, size, len(chunk)):
            conn.send(chunk[: min(len(chunk), size - start)])
        conn.send(tail)
    except (BrokenPipeError, ConnectionResetError):
        pass  # refused before the body was read: the answer is waiting
    status = conn.getresponse().status
    conn.close()
    return status


def test_a_phone_cannot_fill_the_servers_memory_with_uploads(serve):
    srv = serve("app.py")
    with StreamSession(srv.port, source=PHONE) as phone:
        phone.run()  # the start page, from a phone: it offers no uploader there
        assert phone.session_id
        before = rss_mb(srv.pid)
        statuses = [upload(srv.port, phone.session_id, 30 << 20) for _ in range(8)]
        time.sleep(1)
        grown = rss_mb(srv.pid) - before
    assert statuses == [403] * 8, statuses
    assert grown < 60, f"the server grew by {grown:.0f} MB"


DREAMS = Path(__file__).resolve().parents[2] / "data" / "pictures" / "dreams"


def room_options(srv, code: str) -> dict:
    import json
    import sqlite3

    with sqlite3.connect(Path(srv.env["SOBREMESA_DATA"]) / "sobremesa.db") as db:
        return json.loads(db.execute("SELECT options FROM rooms WHERE code = ?", (code,)).fetchone()[0])


@contextlib.contextmanager
def all_uploaded(page, count: int):
    """Waits until `count` files are stored by the server: a submit while one is still going up
    was once lost in CI (the form kept its name and file, and nothing answered)."""
    stored = []

    def note(response):
        if "/_stcore/upload_file/" in response.url and response.request.method == "PUT":
            stored.append(response.status)

    page.on("response", note)
    yield
    deadline = time.monotonic() + WAIT / 1000
    while len(stored) < count and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    page.remove_listener("response", note)
    assert len(stored) == count and all(status < 300 for status in stored), stored


def test_the_laptop_uploads_a_deck_and_a_word_list_and_plays_with_them(serve, browser):
    """The laptop's own upload is taken: the deck's own answer comes back, it is listed, and a
    room is made with it; a word list the same way. From 127.0.0.1 and from localhost alike."""
    srv = serve("app.py")
    page = browser.new_page()  # adopted by the start command's link, at localhost
    page.goto(srv.laptop_link(srv.url.replace("127.0.0.1", "localhost")))
    assert "laptop" not in page.url  # the key leaves the address bar at once
    page.get_by_text("Upload your own deck").click()
    page.get_by_label("Deck name").fill("Our drawings")
    uploader = page.locator("[data-testid='stFileUploaderDropzoneInput']")
    expect(uploader).to_be_attached(timeout=WAIT)
    with all_uploaded(page, 31):
        uploader.set_input_files([str(p) for p in sorted(DREAMS.glob("*.jpg"))[:31]])
    expect(page.get_by_text("dream-031.jpg")).to_be_visible(timeout=WAIT)
    settled(page)
    page.get_by_role("button", name="Add this deck").click()
    expect(page.get_by_text("Deck 'Our drawings' added with 31 cards.")).to_be_visible(timeout=60_000)
    expect(page.get_by_text("403")).to_have_count(0)
    expect(page.get_by_role("combobox", name="Picture deck")).to_have_value("Our drawings (31 cards)")
    page.get_by_role("button", name="Create the room").click()
    page.wait_for_url("**/table?room=*", timeout=WAIT)
    code = page.url.split("room=")[1][:5]
    assert room_options(srv, code)["deck"] == "Our drawings"

    page = srv.as_laptop(browser.new_page())
    page.goto(srv.url + "/")
    page.get_by_role("combobox", name="Game").click()
    page.get_by_role("option", name="Maudit Mot Dit", exact=False).click()
    page.get_by_text("Upload your own word list").click()
    page.get_by_label("List name").fill("Year 6")
    words = "\n".join(",".join(f"word{c}x{w}" for w in range(8)) for c in range(12))
    with all_uploaded(page, 1):
        page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(
            files=[{"name": "year6.txt", "mimeType": "text/plain", "buffer": words.encode()}]
        )
    expect(page.get_by_text("year6.txt")).to_be_visible(timeout=WAIT)
    settled(page)  # the upload's own rerun is over: a click during it can be lost with the rerun
    page.get_by_role("button", name="Add this list").click()
    expect(page.get_by_text("List 'Year 6' added with 12 cards.")).to_be_visible(timeout=WAIT)
    page.get_by_role("button", name="Create the room").click()
    page.wait_for_url("**/table?room=*", timeout=WAIT)
    assert room_options(srv, page.url.split("room=")[1][:5])["words"]


def test_only_the_laptop_page_that_shows_an_uploader_takes_an_upload(serve, browser):
    srv = serve("app.py")
    with StreamSession(srv.port, source="127.0.0.1", cookies={"sobremesa_laptop": srv.laptop_key()}) as local:
        local.run(page="stats")  # a page of the laptop's that shows no uploader: nothing goes in
        assert upload(srv.port, local.session_id, 1 << 20, source="127.0.0.1") == 403
    with StreamSession(srv.port, source="127.0.0.1") as forwarded:  # a forwarder on the laptop: no laptop cookie
        forwarded.run()
        assert upload(srv.port, forwarded.session_id, 1 << 20, source="127.0.0.1") == 403


def test_a_phone_through_a_forwarder_on_the_laptop_is_not_this_computer(serve, monkeypatch):
    """A forwarder on the laptop that adds no X-Forwarded-For makes every phone 127.0.0.1: the
    address alone used to list the rooms and renew their host keys for any phone."""
    from engine import tables
    from tests.forwarder import forwarder

    srv = serve("app.py")
    monkeypatch.setenv("SOBREMESA_DATA", srv.env["SOBREMESA_DATA"])  # this process writes the server's store
    room = tables.create_room("dixit")
    with forwarder(srv.port) as port, StreamSession(port, source=PHONE) as phone:
        phone.run()
        shown = "\n".join(phone.texts)
    assert "Rooms on this computer" not in shown and room.code not in shown
    assert "Upload your own deck" not in shown
    with StreamSession(srv.port, source="127.0.0.1", cookies={"sobremesa_laptop": srv.laptop_key()}) as laptop:
        laptop.run()
        assert "Rooms on this computer" in "\n".join(laptop.texts)


def test_member_links_with_wrong_codes_count_against_the_phone(serve, monkeypatch):
    """188 codes were once tried through `/play?room=…&member=…&token=…` after the join page had
    blocked the phone: that way in never counted. Now it counts, and its answers tell nothing."""
    from engine import tables
    from tests.engine.tables.test_phone_limits import wrong_codes

    srv = serve("app.py")
    monkeypatch.setenv("SOBREMESA_DATA", srv.env["SOBREMESA_DATA"])
    code = tables.create_room("dixit").code
    with StreamSession(srv.port, source=PHONE) as phone:
        for guess in wrong_codes(10):
            phone.texts.clear()
            phone.run(query=f"room={guess}&member=x&token=y", page="play")
            assert any("audience link is not valid" in t for t in phone.texts), phone.texts
        phone.texts.clear()
        phone.run(query=f"room={code}&member=x&token=y", page="play")  # the real room, now
        assert any("Too many wrong room codes" in t for t in phone.texts), phone.texts
