"""Attacks from a phone on the network, against a real server. The phone is a client whose source
address is 127.0.0.2: the server treats only 127.0.0.1 and ::1 as this computer. Nothing here
leaves the loopback range."""

from __future__ import annotations

import http.client
import time
from pathlib import Path

from playwright.sync_api import expect

from streamlit.web.server.starlette.starlette_app_utils import generate_xsrf_token_string
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


def test_only_the_laptop_page_that_shows_an_uploader_takes_an_upload(serve, browser):
    srv = serve("app.py")
    page = browser.new_page()
    page.goto(srv.url + "/")
    page.get_by_text("Upload your own deck").click()
    uploader = page.locator("[data-testid='stFileUploaderDropzoneInput']")
    expect(uploader).to_be_attached(timeout=WAIT)
    picture = Path(__file__).resolve().parents[2] / "data" / "pictures" / "dreams" / "dream-001.jpg"
    uploader.set_input_files(str(picture))
    expect(page.get_by_text("dream-001.jpg")).to_be_visible(timeout=WAIT)  # the laptop's own upload is taken
    expect(page.get_by_text("403")).to_have_count(0)

    with StreamSession(srv.port, source="127.0.0.1") as local:
        local.run(page="stats")  # a page of the laptop's that shows no uploader: nothing goes in
        assert upload(srv.port, local.session_id, 1 << 20, source="127.0.0.1") == 403
