"""The address phones join at: the host's pick among this laptop's addresses (a setting of the
server, every room's), and the links built on it (engine/address.py decides the order)."""

from __future__ import annotations

import os
import time

from engine import address
from engine.core import BadOptions
from engine.tables.base import prove_host, refusals_only, room_row, store

JOIN_ADDRESS = "join_address"


@refusals_only
def join_address() -> str | None:
    """The address the host picked for the phones' links (a setting of this server), if any."""
    return store().setting(JOIN_ADDRESS)


BASE_SECONDS = 5.0  # how long a base is kept: every wall draw asks (0.18 ms: an SQL read, a route probe)
_bases: dict[tuple, tuple[float, str]] = {}


@refusals_only
def join_base(port: int) -> str:
    """The base of the links and QR codes phones open (engine/address.py says in which order the
    environment, the host's pick and the default route decide). Kept BASE_SECONDS for this store
    and environment; the host's pick on this process takes effect at once."""
    key = (port, id(store()), os.environ.get("SOBREMESA_PUBLIC_URL"), os.environ.get("SOBREMESA_HOST"))
    kept = _bases.get(key)
    if kept is not None and time.monotonic() - kept[0] < BASE_SECONDS:
        return kept[1]
    base = address.base_url(port, pick=join_address())
    if len(_bases) > 64:
        _bases.clear()
    _bases[key] = (time.monotonic(), base)
    return base


@refusals_only
def join_choices() -> dict:
    """For the host's address picker: this laptop's usable addresses (the default route's first),
    the one the links use now, and the variable that fixes it when one does (then a pick does nothing)."""
    return {
        "addresses": address.candidates(),
        "shown": address.best(join_address()),
        "fixed_by": address.fixed_by_environment(),
    }


@refusals_only
def set_join_address(code: str, host_token: str, chosen: str | None) -> None:
    """The host picks which of this laptop's addresses the QR codes and links show (every room's:
    it is the server's); None goes back to the default route's. Only one the laptop has now."""
    prove_host(room_row(code), host_token)
    if chosen is not None and chosen not in address.candidates():
        raise BadOptions("This laptop has no address {address} on its networks now.", address=str(chosen)[:60])
    with store().transaction() as conn:
        store().set_setting(conn, JOIN_ADDRESS, chosen)
    _bases.clear()
