"""The address phones use to reach this laptop: what the QR code and the join link show.

Pure standard library, nothing Streamlit. The order, strongest first:

1. `SOBREMESA_PUBLIC_URL`: a full base URL (https://games.school.example), used as it is;
2. `SOBREMESA_HOST`: an address or a name, with the server's port;
3. the host's pick on the shared screen (kept in the database: `tables.join_address`), while this
   laptop still has that address (yesterday's network's address would give phones a dead link);
4. the address of the interface that carries the default route: the one phones on the same Wi-Fi
   reach, found without sending a packet (connecting a UDP socket only chooses a route).

`candidates()` lists what the host may pick from: every usable IPv4 address found (not loopback,
not link-local 169.254.x.x), the default route's first, addresses virtual adapters usually take
(Docker, VirtualBox, libvirt) last.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import time
from collections.abc import Callable, Iterable, Mapping

# Destinations to "connect" a UDP socket to: nothing is sent; the kernel picks the source address
# of the route it would take. The public one finds the default route; the private ones find an
# interface on another private network (a second adapter) when there is one.
ROUTE_PROBES = ("203.0.113.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")

# Addresses virtual adapters take by default: kept as candidates, but offered after real ones.
VIRTUAL = tuple(ipaddress.ip_network(n) for n in ("172.17.0.0/16", "192.168.56.0/24", "192.168.122.0/24"))

CACHE_SECONDS = 30.0


def usable(addr: str) -> bool:
    """An IPv4 address phones could be sent to: not loopback, link-local, unspecified or multicast."""
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return False
    return (
        ip.version == 4
        and not ip.is_loopback
        and not ip.is_link_local
        and not ip.is_unspecified
        and not ip.is_multicast
        and not ip.is_reserved
    )


def virtual(addr: str) -> bool:
    ip = ipaddress.ip_address(addr)
    return any(ip in net for net in VIRTUAL)


def route_source(destination: str) -> str | None:
    """The local address a packet to `destination` would leave from; no packet is sent."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((destination, 80))
            return s.getsockname()[0]
    except OSError:  # no route there (offline, or no such network)
        return None


def local(addr: str) -> bool:
    """This machine has the address now: a socket can be bound to it (no name lookup, no packet)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.bind((addr, 0))
        return True
    except (OSError, ValueError):
        return False


def default_route() -> str | None:
    """The address of the interface that carries the default route, if it is usable."""
    found = route_source(ROUTE_PROBES[0])
    return found if found and usable(found) else None


def host_name_addresses() -> list[str]:
    """What this machine's name resolves to (IPv4), in the resolver's order."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]  # an IPv4 address: already text


def order(found: Iterable[str | None], first: str | None = None) -> list[str]:
    """Usable addresses without repeats: `first` (the default route's), then real, then virtual."""
    seen: list[str] = []
    for addr in (first, *found):
        if addr and usable(addr) and addr not in seen:
            seen.append(addr)
    head = seen[:1] if first and seen and seen[0] == first else []
    rest = seen[len(head) :]
    return head + [a for a in rest if not virtual(a)] + [a for a in rest if virtual(a)]


_cache: dict[str, tuple[float, object]] = {}


def _cached(key: str, make: Callable[[], object]):
    now = time.monotonic()
    kept = _cache.get(key)
    if kept is None or now - kept[0] > CACHE_SECONDS:
        kept = (now, make())
        _cache[key] = kept
    return kept[1]


def forget() -> None:
    """Look again at the next call (tests; the laptop changed networks)."""
    _cache.clear()


def candidates() -> list[str]:
    """Every usable address of this laptop, the default route's first. Asked again every 30 s at
    most (the laptop may join another network while the server runs): the host name's look-up is
    the one slow step. Only the host's picker and its check need the list; links do not."""

    def find() -> list[str]:
        probed = [route_source(d) for d in ROUTE_PROBES[1:]]
        return order([*host_name_addresses(), *probed], first=default_route())

    return list(_cached("candidates", find))


def best(pick: str | None = None) -> str:
    """The address for the phones, without the environment's say: the host's pick while this
    laptop has it, else the default route's, else the first usable one, else localhost. Asked for
    every link: the usual answers cost a socket each, no name look-up."""
    if pick and usable(pick) and local(pick):
        return pick
    route = default_route()
    if route:
        return route
    found = candidates()
    return found[0] if found else "localhost"


def base_url(port: int, pick: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The base of every link phones open, without a trailing slash (see the module's order)."""
    env = os.environ if env is None else env
    public = (env.get("SOBREMESA_PUBLIC_URL") or "").strip()
    if public:
        return public.rstrip("/")
    host = (env.get("SOBREMESA_HOST") or "").strip() or best(pick)
    if ":" in host and not host.startswith("["):  # an IPv6 address given by hand
        host = f"[{host}]"
    return f"http://{host}:{port}"


def fixed_by_environment(env: Mapping[str, str] | None = None) -> str | None:
    """The variable that sets the address, when one does: the host's pick then changes nothing."""
    env = os.environ if env is None else env
    for name in ("SOBREMESA_PUBLIC_URL", "SOBREMESA_HOST"):
        if (env.get(name) or "").strip():
            return name
    return None
