"""The host's key: who may hold a room's controls."""

from __future__ import annotations

import hashlib
import secrets

from engine.tables.base import changing, hash_token, prove_host, refusals_only, room_row


def mark(host_hash: str) -> str:
    """A short mark of which key holds the room now: a wall page holding the host's controls reruns
    when it changes (another tab took them over). Tells nothing of the key."""
    return hashlib.blake2b(host_hash.encode(), digest_size=6).hexdigest()


@refusals_only
def host_mark(code: str) -> str:
    return mark(room_row(code)["host_hash"])


@refusals_only
def check_host(code: str, host_token: str) -> None:
    prove_host(room_row(code), host_token)


@refusals_only
def renew_host_token(code: str) -> str:
    """A new host token for a room (old host links stop working). Pages offer this only on the
    server's own machine, whose user is the host."""
    token = secrets.token_urlsafe(16)
    with changing(code) as change:  # news: the old host tab closes its panel
        change.fields["host_hash"] = hash_token(token)
    return token
