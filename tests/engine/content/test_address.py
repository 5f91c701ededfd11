"""The address phones join at: found without a packet, chosen among several, overridden in order."""

import html
import socket

import pytest

from engine import address, tables
from tests.pages.test_pages import stage_markup


@pytest.fixture
def machine(monkeypatch):
    """A fake laptop: what its name resolves to, and the source address of each route."""
    fake = {"name": [], "routes": {}}

    def getaddrinfo(host, port, family=0, type=0, *args):
        assert host == "teacher-laptop"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, 0)) for a in fake["name"]]

    monkeypatch.setattr(socket, "gethostname", lambda: "teacher-laptop")
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(address, "route_source", lambda dest: fake["routes"].get(dest))
    monkeypatch.setattr(address, "local", lambda a: a in fake["name"] or a in fake["routes"].values())
    for name in ("SOBREMESA_PUBLIC_URL", "SOBREMESA_HOST"):
        monkeypatch.delenv(name, raising=False)
    address.forget()
    yield fake
    address.forget()


def test_the_default_route_is_found_without_sending_anything(monkeypatch):
    calls = []

    class Recorder:
        def __init__(self, family, kind):
            calls.append(("socket", family, kind))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def __getattr__(self, name):  # any call but these two would be recorded, then fail the test
            return lambda *a: calls.append((name, *a)) or ("192.168.1.20", 40000)

    monkeypatch.setattr(address.socket, "socket", Recorder)
    assert address.default_route() == "192.168.1.20"
    assert [c[0] for c in calls] == ["socket", "connect", "getsockname"]
    assert calls[0][2] == socket.SOCK_DGRAM  # connecting a UDP socket only chooses a route


def test_the_real_default_route_is_usable_or_absent():
    found = address.default_route()
    assert found is None or address.usable(found) and address.local(found)
    assert not address.local("203.0.113.1")  # a documentation address no machine has


def test_usable_addresses():
    assert address.usable("192.168.1.20") and address.usable("10.0.0.7") and address.usable("172.20.1.1")
    for bad in ("127.0.0.1", "127.0.1.1", "169.254.10.3", "0.0.0.0", "::1", "fe80::1", "224.0.0.1", "laptop", ""):
        assert not address.usable(bad), bad


def test_a_host_name_resolving_to_loopback_and_a_virtual_adapter_first(machine):
    # Debian's 127.0.1.1, then VirtualBox's host-only adapter, then the Wi-Fi: the Wi-Fi carries the route.
    machine["name"] = ["127.0.1.1", "192.168.56.1", "169.254.3.4", "192.168.1.20"]
    machine["routes"] = {address.ROUTE_PROBES[0]: "192.168.1.20"}
    assert address.candidates() == ["192.168.1.20", "192.168.56.1"]
    assert address.base_url(8501) == "http://192.168.1.20:8501"


def test_without_a_default_route_real_adapters_come_before_virtual_ones(machine):
    machine["name"] = ["127.0.1.1", "172.17.0.1", "10.4.0.12"]
    assert address.default_route() is None
    assert address.candidates() == ["10.4.0.12", "172.17.0.1"]
    assert address.base_url(8600) == "http://10.4.0.12:8600"


def test_a_second_network_found_by_route(machine):
    # Linux: the name resolves to loopback only; a cable on 10.x beside the Wi-Fi.
    machine["name"] = ["127.0.1.1"]
    machine["routes"] = {
        address.ROUTE_PROBES[0]: "192.168.1.20",
        "10.255.255.254": "10.0.0.5",
        "192.168.255.254": "192.168.1.20",
    }
    assert address.candidates() == ["192.168.1.20", "10.0.0.5"]


def test_nothing_usable_means_localhost(machine):
    machine["name"] = ["127.0.1.1"]
    assert address.candidates() == []
    assert address.base_url(8501) == "http://localhost:8501"


def test_the_order_public_url_then_host_then_pick_then_default_route(machine):
    machine["name"] = ["192.168.1.20", "10.0.0.5"]
    machine["routes"] = {address.ROUTE_PROBES[0]: "192.168.1.20"}
    assert address.base_url(8501) == "http://192.168.1.20:8501"
    assert address.base_url(8501, pick="10.0.0.5") == "http://10.0.0.5:8501"
    # A pick this laptop no longer has (yesterday's network) gives way to the default route.
    assert address.base_url(8501, pick="172.16.9.9") == "http://192.168.1.20:8501"
    env = {"SOBREMESA_HOST": "games.local"}
    assert address.base_url(8501, pick="10.0.0.5", env=env) == "http://games.local:8501"
    env["SOBREMESA_PUBLIC_URL"] = "https://games.school.example/"
    assert address.base_url(8501, pick="10.0.0.5", env=env) == "https://games.school.example"
    assert address.fixed_by_environment(env) == "SOBREMESA_PUBLIC_URL"
    assert address.fixed_by_environment({}) is None


def test_the_hosts_pick_is_kept_by_the_server_and_checked(machine):
    machine["name"] = ["192.168.1.20", "10.0.0.5"]
    machine["routes"] = {address.ROUTE_PROBES[0]: "192.168.1.20"}
    room = tables.create_room("dixit")
    assert tables.join_address() is None
    tables.set_join_address(room.code, room.host_token, "10.0.0.5")
    tables.reset()  # a restart: the store is opened again
    assert tables.join_address() == "10.0.0.5"
    assert tables.join_base(8501) == "http://10.0.0.5:8501"
    assert tables.join_choices() == {"addresses": ["192.168.1.20", "10.0.0.5"], "shown": "10.0.0.5", "fixed_by": None}
    with pytest.raises(tables.SobremesaError):
        tables.set_join_address(room.code, room.host_token, "8.8.8.8")
    with pytest.raises(tables.SobremesaError):
        tables.set_join_address(room.code, "not-the-host", "192.168.1.20")
    assert tables.join_address() == "10.0.0.5"
    tables.set_join_address(room.code, room.host_token, None)
    assert tables.join_base(8501) == "http://192.168.1.20:8501"


def test_the_host_picks_the_address_on_the_shared_screen(machine, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from pages import ui
    from tests.pages.test_pages import ROOT, TIMEOUT

    monkeypatch.setattr(ui, "is_local_request", lambda: True)  # the laptop's own browser

    machine["name"] = ["127.0.1.1", "192.168.56.1", "192.168.1.20", "10.0.0.5"]
    machine["routes"] = {address.ROUTE_PROBES[0]: "192.168.1.20"}
    room = tables.create_room("dixit", seed=1)

    def open_wall(host: bool):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
        at.query_params["room"] = room.code
        if host:
            at.query_params["host"] = room.host_token
        at.switch_page("pages/table.py").run()
        assert not at.exception, [e.message for e in at.exception]
        return at

    def join_link(at) -> str:
        return html.unescape(stage_markup(at))  # the lobby is the stage's: its socket draws the address

    wall = open_wall(host=True)
    picker = wall.radio(key="join-address")
    assert picker.options == ["192.168.1.20 (usual)", "10.0.0.5", "192.168.56.1"]
    assert "192.168.1.20" in join_link(wall)
    picker.set_value("10.0.0.5").run()
    assert not wall.exception
    assert "10.0.0.5:" in join_link(wall) and tables.join_address() == "10.0.0.5"
    # Every screen of the server shows it, and a viewer of the wall has no picker.
    viewer = open_wall(host=False)
    assert "10.0.0.5:" in join_link(viewer)
    assert not [r for r in viewer.radio if r.key == "join-address"]
    # The host's tab, opened from a phone: no picker (the address is the laptop's to choose).
    monkeypatch.setattr(ui, "is_local_request", lambda: False)
    assert not [r for r in open_wall(host=True).radio if r.key == "join-address"]
    monkeypatch.setattr(ui, "is_local_request", lambda: True)
    # Back to the usual one: the server follows the default route again.
    wall.radio(key="join-address").set_value("192.168.1.20").run()
    assert tables.join_address() is None


def test_no_picker_when_the_environment_sets_the_address(machine, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from pages import ui
    from tests.pages.test_pages import ROOT, TIMEOUT

    monkeypatch.setattr(ui, "is_local_request", lambda: True)

    machine["name"] = ["192.168.1.20", "10.0.0.5"]
    monkeypatch.setenv("SOBREMESA_PUBLIC_URL", "https://games.school.example")
    room = tables.create_room("dixit", seed=1)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.query_params["room"], at.query_params["host"] = room.code, room.host_token
    at.switch_page("pages/table.py").run()
    assert not at.exception
    assert not [r for r in at.radio if r.key == "join-address"]
    assert f"games.school.example/{room.code}" in html.unescape(stage_markup(at))


def test_the_setting_in_postgresql_too(machine, postgres_url):
    machine["name"] = ["192.168.1.20", "10.0.0.5"]
    room = tables.create_room("dixit")
    tables.set_join_address(room.code, room.host_token, "10.0.0.5")
    tables.reset()
    assert tables.join_address() == "10.0.0.5"
    tables.set_join_address(room.code, room.host_token, None)
    assert tables.join_address() is None


def test_the_picker_survives_a_network_change_between_two_looks(machine, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from pages import ui
    from tests.pages.test_pages import ROOT, TIMEOUT

    monkeypatch.setattr(ui, "is_local_request", lambda: True)
    machine["name"] = ["192.168.1.20", "10.0.0.5"]
    machine["routes"] = {address.ROUTE_PROBES[0]: "192.168.1.20"}
    address.candidates()  # kept for 30 s ...
    machine["routes"] = {address.ROUTE_PROBES[0]: "172.20.0.9"}  # ... while the laptop changes networks
    room = tables.create_room("dixit", seed=1)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.query_params["room"], at.query_params["host"] = room.code, room.host_token
    at.switch_page("pages/table.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.radio(key="join-address").options[0] == "192.168.1.20 (usual)"
