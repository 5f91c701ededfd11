"""How many wrong room codes one device may try, and what one address may do.

Codes can be tried on the pages (`/play?room=…`) and in a stage socket's hello. `Probes` counts
wrong codes per device (a browser's own id) and per address in a sliding window; past a limit the
device is told to wait, whichever code it tries next, unless it shows a seat's or the host's token
for the room (a guess never carries one) or it is the computer that runs the server.
`per_address()` is the one rule for what else an address may hold: connections, seats, taps.

Nothing here imports Streamlit.
"""

from __future__ import annotations

import ipaddress
import os
import threading
import time
from collections import deque
from dataclasses import dataclass

LOCAL_ADDRESSES = ("127.0.0.1", "::1")  # this computer: the server's own laptop, never locked out


def is_local(address) -> bool:
    """The computer that runs the server (its own browser, usually the shared screen's)."""
    return address in LOCAL_ADDRESSES


def trusted_networks() -> list:
    """The proxies listed in `SOBREMESA_TRUSTED_PROXIES`."""
    return _networks(os.environ.get("SOBREMESA_TRUSTED_PROXIES", ""))


def _networks(listed: str) -> list:
    found = []
    for item in filter(None, (p.strip() for p in listed.replace(";", ",").split(","))):
        try:
            found.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            continue  # a typo in the setting trusts nothing more
    return found


def within(address: str, networks: list) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip.version == n.version and ip in n for n in networks)


def where(peer: str | None, forwarded: str | None, trusted: str | None = None) -> tuple[str, bool]:
    """(the client's address, whether it is this computer) for a connection from `peer` carrying
    `forwarded` (its X-Forwarded-For header, or None).

    `X-Forwarded-For` is believed only from a proxy listed in `SOBREMESA_TRUSTED_PROXIES` (addresses
    or networks, comma-separated): the client is then the last address the trusted proxies did not
    add. A request that came through any proxy (one not trusted, or a trusted one that named nobody)
    is never this computer: behind a reverse proxy on the same laptop every request comes from
    127.0.0.1, and the host controls must then come from the host's key alone."""
    peer = peer or "127.0.0.1"
    networks = _networks(os.environ.get("SOBREMESA_TRUSTED_PROXIES", "") if trusted is None else trusted)
    hops = [h.strip() for h in (forwarded or "").split(",") if h.strip()]
    if not hops:
        return peer, is_local(peer) and not within(peer, networks)
    if not within(peer, networks):
        return peer, False  # a proxy we do not trust: its header could say anything
    for hop in reversed(hops):
        if not within(hop, networks):
            return hop, is_local(hop)
    return hops[0], is_local(hops[0])  # every hop a trusted proxy: the first is the browser


@dataclass(frozen=True)
class PerAddress:
    """What one address may do: one rule for the sockets, the seats and the taps. The address is
    `where`'s (behind a trusted proxy, the forwarded one), and the laptop is never limited."""

    connections: int  # open connections (sockets and requests), counted from accept (engine/connections.py)
    seats: int  # seats in one room (a second phone on one address is a shared tablet, or a class behind NAT)
    taps: int  # taps on the stage in `TAP_SECONDS` (engine/push/stage.py)


TAP_SECONDS = 10
# A phone on the laptop's Wi-Fi has its own address: a few tabs' sockets and requests, two seats.
PHONE = PerAddress(connections=32, seats=2, taps=60)
# Behind SOBREMESA_PUBLIC_URL a school's NAT may put a whole class behind one address: the limits
# that count people rise to a hall's (300 watching, 12 seats); the limits on guessing codes stay.
HALL = PerAddress(connections=1200, seats=12, taps=1500)


def per_address() -> PerAddress:
    return HALL if os.environ.get("SOBREMESA_PUBLIC_URL") else PHONE


@dataclass(frozen=True)
class Device:
    """Who is asking: a browser's own random id (kept in a cookie, made on its first visit; None
    when unknown) and the address it connects from. Limits count both: a school often puts every
    phone behind one address, so one student's guesses must not lock out the class, and clearing
    cookies must not reset the count."""

    id: str | None
    address: str
    kind: str = ""  # "Android phone", "iPhone", ... for the host's eyes (see `device_kind`)
    local: bool | None = None  # the computer that runs the server (`where`); None: judged by the address

    @property
    def here(self) -> bool:
        return is_local(self.address) if self.local is None else self.local

    @classmethod
    def of(cls, device) -> Device:
        """A Device from what callers pass: a Device, or an address alone (older callers, tests)."""
        return device if isinstance(device, Device) else cls(None, str(device))


class Probes:
    """Wrong room codes per device and per address, in a sliding window of `window` seconds: at
    most `limit` from one device and `address_limit` from one address (higher: a school's phones
    share one). The server's own computer is never counted.

    With 5 letters from 20 (3.2 million codes) and 50 rooms open, one address guessing as fast as it
    may needs `hours_to_hit` (see there) to find any room: over a day."""

    def __init__(self, limit: int = 10, window: float = 60.0, devices: int = 10_000, address_limit: int = 30) -> None:
        self.limit, self.window, self.devices, self.address_limit = limit, window, devices, address_limit
        self._misses: dict[str, deque] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque | None:
        misses = self._misses.get(key)
        while misses and misses[0] <= now - self.window:
            misses.popleft()
        return misses

    def clear(self) -> None:
        with self._lock:
            self._misses.clear()

    @staticmethod
    def _keys(device: Device) -> list[tuple[str, str]]:
        keys = [("address", "a:" + device.address)]
        if device.id:
            keys.append(("device", "d:" + device.id))
        return keys

    def blocked(self, device, now: float | None = None) -> bool:
        device = Device.of(device)
        if device.here:
            return False
        now = time.monotonic() if now is None else now
        with self._lock:
            for kind, key in self._keys(device):
                misses = self._recent(key, now)
                # A device unknown by id is held to the device's limit at its address.
                most = self.address_limit if kind == "address" and device.id else self.limit
                if misses is not None and len(misses) >= most:
                    return True
        return False

    def miss(self, device, now: float | None = None) -> None:
        device = Device.of(device)
        if device.here:
            return
        now = time.monotonic() if now is None else now
        with self._lock:
            for _kind, key in self._keys(device):
                if key not in self._misses and len(self._misses) >= self.devices:
                    for old in [d for d in self._misses if not self._recent(d, now)]:
                        del self._misses[old]
                    if len(self._misses) >= self.devices:  # a flood of devices: forget the oldest
                        del self._misses[next(iter(self._misses))]
                self._misses.setdefault(key, deque()).append(now)


def hours_to_hit(codes: int, rooms: int, per_minute: int) -> float:
    """Expected hours for one address guessing `per_minute` codes a minute, never the same one
    twice, to find any of `rooms` open rooms among `codes` possible codes."""
    guesses = (codes + 1) / (rooms + 1)
    return guesses / per_minute / 60


def device_kind(user_agent: str | None) -> str:
    """What kind of device a browser is, in a few words the host recognises ("Android phone")."""
    agent = user_agent or ""
    if "iPhone" in agent:
        return "iPhone"
    if "iPad" in agent or ("Macintosh" in agent and "Mobile" in agent):
        return "iPad"
    if "Android" in agent:
        return "Android phone" if "Mobile" in agent else "Android tablet"
    if "Windows" in agent:
        return "Windows computer"
    if "Macintosh" in agent:
        return "Mac"
    if "CrOS" in agent:
        return "Chromebook"
    if "Linux" in agent:
        return "Linux computer"
    return "device"


PROBES = Probes()  # one per server process: the pages and the push route share it
