"""The host's key and the push sockets' tickets: who may hold a room's controls, and who may listen."""

from __future__ import annotations

import secrets

from engine import gate
from engine.core import RoomNotFound
from engine.tables.base import _hash, _host, _room, _seat, changing, refusals_only


@refusals_only
def push_ticket(code: str, seat: int | None = None, token: str | None = None, channel: str | None = None) -> str:
    """A ticket for a page's push socket (`engine.gate`): the wall's for anyone with the room's code,
    a seat's only with that seat's token. `channel` is the room's own code or its presence channel."""
    room = _room(code)
    if seat is not None:
        _seat(room, seat, token)
    channel = room["code"] if channel is None else channel
    if not channel.startswith(room["code"]):
        raise RoomNotFound(code)
    return gate.issue(channel, seat)


@refusals_only
def check_host(code: str, host_token: str) -> None:
    _host(_room(code), host_token)


@refusals_only
def renew_host_token(code: str) -> str:
    """A new host token for a room (old host links stop working). Pages offer this only on the
    server's own machine, whose user is the host."""
    token = secrets.token_urlsafe(16)
    with changing(code) as change:  # news: the old host tab closes its panel
        change.fields["host_hash"] = _hash(token)
    return token
