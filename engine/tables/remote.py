"""The host's remote: a stage socket proved by the room's host key (in its first message, never in
an address), whose taps are the host's actions, and the one-time QR that hands the key to the
teacher's phone once the laptop allows it.

Who holds the key: the laptop's tab that created the room (and its wall), a remote on a phone or
in a second window. The start page opening a room again renews the key (`host.renew_host_token`):
every remote and wall holding the old one loses its controls, as a seat's renewed link blanks its
old phone.

The QR (`pair_offer`): one pending offer a room, good for PAIR_SECONDS and one scan. The phone
that scans it asks (`pair_ask`, with a secret of its own); the laptop allows or refuses
(`pair_answer`); only then does that phone's `pair_claim` get the key, once. The offer lives in
the store (several processes share it): the key is written there only between the laptop's yes
and the phone's claim."""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timedelta

from engine.core import BadOptions, BadToken, IllegalMove, RoomNotFound, TooManyTries
from engine.tables import audience_host, bots, pace, play, rejoins, rooms
from engine.tables.base import (
    changing,
    hash_token,
    normalise_code,
    probed,
    prove_host,
    refusals_only,
    room_row,
    store,
    time_now,
    token_ok,
)

PAIR_SECONDS = 60
SOUND = "sound:"  # a room's sound on its wall: {"muted": bool, "volume": 0..100}, kept in settings
PAIR = "pair:"


@refusals_only
def host_hello(code: str, host_token, device=None) -> str:
    """The room's code for a socket that proves its host key; a wrong key reads as a wrong code
    (`BadToken`), and a wrong code counts against the phone as every lookup does."""
    if not isinstance(host_token, str):
        raise BadToken("host")
    try:
        room = probed(code, device, proof=lambda r: token_ok(host_token, r["host_hash"]))
    except (RoomNotFound, TooManyTries):
        raise BadToken("host") from None
    if not token_ok(host_token, room["host_hash"]):
        raise BadToken("host")
    return room["code"]


def holds(code: str, key_hash: str) -> bool:
    """Whether the host key behind `key_hash` is still the room's (not renewed since)."""
    try:
        return room_row(code)["host_hash"] == key_hash
    except RoomNotFound:
        return False


def _seat(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 64:
        raise IllegalMove("That tap could not be read. Try again.")
    return value


def _text(value) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise IllegalMove("That tap could not be read. Try again.")
    return value


def _flag(value) -> bool:
    if not isinstance(value, bool):
        raise IllegalMove("That tap could not be read. Try again.")
    return value


# Each action of the remote: the service call it makes, with the move's fields read and checked.
ACTIONS = {
    "start": lambda c, k, m: rooms.start(c, k),
    "next": lambda c, k, m: pace.next_scene(c, k),
    "hold": lambda c, k, m: pace.hold(c, k),
    "pause": lambda c, k, m: pace.pause(c, k),
    "resume": lambda c, k, m: pace.resume(c, k),
    "more_time": lambda c, k, m: pace.more_time(c, k, 30),
    "pace": lambda c, k, m: pace.set_pace(c, k, _text(m.get("pace"))),
    "skip": lambda c, k, m: play.skip(c, k, _seat(m.get("seat"))),
    "kick": lambda c, k, m: rooms.kick(c, k, _seat(m.get("seat"))),
    "end": lambda c, k, m: play.end(c, k),
    "again": lambda c, k, m: rooms.play_again(c, k),
    "add_bot": lambda c, k, m: bots.add_bot(c, k, _text(m.get("level", "normal"))),
    "hand_to_bot": lambda c, k, m: bots.hand_to_bot(c, k, _seat(m.get("seat")), _text(m.get("level", "normal"))),
    "take_back": lambda c, k, m: bots.take_back(c, k, _seat(m.get("seat"))),
    "let_back_in": lambda c, k, m: rejoins.let_back_in(
        c, k, _seat(m.get("seat")), _flag(m.get("allow")), _text(m.get("request"))
    ),
    "let_join": lambda c, k, m: rejoins.let_join(c, k, _text(m.get("request")), _flag(m.get("allow"))),
    "audience": lambda c, k, m: audience_host.open_audience(c, k, _flag(m.get("open"))),
    "remove_member": lambda c, k, m: audience_host.remove_member(c, k, _text(m.get("member"))),
    "sound": lambda c, k, m: set_sound(c, k, m.get("muted"), m.get("volume")),
}


def host_move(code: str, host_token: str, move: dict) -> None:
    """One tap of the remote (or a key on the host's wall): `{"host": action, ...its fields}`."""
    name = move.get("host")
    action = ACTIONS.get(name) if isinstance(name, str) else None
    if action is None:
        raise IllegalMove("That tap could not be read. Try again.")
    action(code, host_token, move)


def sound(code: str) -> dict | None:
    """The room's sound on its wall as the host last set it, or None (the laptop's own choice)."""
    found = store().setting(SOUND + normalise_code(code))
    try:
        return json.loads(found) if found else None
    except ValueError:
        return None


@refusals_only
def set_sound(code: str, host_token: str, muted, volume) -> None:
    """Mute or not, and the volume (0 to 100), from the remote or the wall's M: every wall of the
    room follows at its next draw, and the laptop remembers it (pages/assets/sound.js)."""
    if not isinstance(muted, bool) or not isinstance(volume, int) or isinstance(volume, bool) or not 0 <= volume <= 100:
        raise BadOptions("That sound setting could not be read.")
    with changing(code, host_token) as change:
        store().set_setting(change.conn, SOUND + change.code, json.dumps({"muted": muted, "volume": volume}))


# ---- the QR that hands the key to a phone ----------------------------------------------------------


def _offer(code: str, conn=None) -> dict | None:
    found = store().setting(PAIR + code, conn)
    try:
        offer = json.loads(found) if found else None
    except ValueError:
        return None
    if offer and datetime.fromisoformat(offer["until"]) < datetime.fromisoformat(time_now()):
        return None
    return offer


def _until(seconds: float) -> str:
    return (datetime.fromisoformat(time_now()) + timedelta(seconds=seconds)).isoformat()


@refusals_only
def pair_offer(code: str, host_token: str) -> dict:
    """A new one-time QR for the host's phone (any earlier one stops): {"nonce", "until"}."""
    nonce = secrets.token_urlsafe(18)
    until = _until(PAIR_SECONDS)
    with store().transaction() as conn:
        room = room_row(code, conn)
        prove_host(room, host_token)
        offer = {"nonce": hash_token(nonce), "until": until, "state": "offered"}
        store().set_setting(conn, PAIR + room["code"], json.dumps(offer))
    return {"nonce": nonce, "until": until}


@refusals_only
def pair_ask(code: str, nonce, kind: str, device=None) -> str:
    """A phone scanned the QR: it waits for the laptop with the secret returned. A used, expired or
    wrong QR gets the same answer as a wrong code."""
    if not isinstance(nonce, str) or len(nonce) > 64:
        raise BadToken("host")
    try:
        room = probed(code, device)
    except (RoomNotFound, TooManyTries):
        raise BadToken("host") from None
    secret = secrets.token_urlsafe(18)
    with store().transaction() as conn:
        offer = _offer(room["code"], conn)
        if offer is None or offer["state"] != "offered" or not token_ok(nonce, offer["nonce"]):
            raise BadToken("host")
        offer.update(state="asked", asker=hash_token(secret), kind=str(kind)[:40], until=_until(PAIR_SECONDS))
        store().set_setting(conn, PAIR + room["code"], json.dumps(offer))
    return secret


@refusals_only
def pair_request(code: str, host_token: str) -> dict | None:
    """What the laptop shows: {"state": "offered" | "asked" | ..., "kind"?, "until"} or None."""
    room = room_row(code)
    prove_host(room, host_token)
    offer = _offer(room["code"])
    return {k: offer[k] for k in ("state", "kind", "until") if k in offer} if offer else None


@refusals_only
def pair_answer(code: str, host_token: str, allow: bool) -> None:
    """The laptop allows the phone that asked, or not (the QR is spent either way)."""
    with store().transaction() as conn:
        room = room_row(code, conn)
        prove_host(room, host_token)
        offer = _offer(room["code"], conn)
        if offer is None or offer["state"] != "asked":
            raise IllegalMove("No phone is asking to host this room now.")
        if allow:
            offer.update(state="allowed", key=host_token)
            store().set_setting(conn, PAIR + room["code"], json.dumps(offer))
        else:
            store().set_setting(conn, PAIR + room["code"], None)


@refusals_only
def pair_cancel(code: str, host_token: str) -> None:
    with store().transaction() as conn:
        room = room_row(code, conn)
        prove_host(room, host_token)
        store().set_setting(conn, PAIR + room["code"], None)


@refusals_only
def pair_claim(code: str, secret) -> str | None:
    """The asking phone's key once the laptop allowed it (given once: the offer is gone after), None
    while the laptop has not answered; refused (`BadToken`) when it said no or the time ran out."""
    if not isinstance(secret, str):
        raise BadToken("host")
    normal = normalise_code(code)
    with store().transaction() as conn:
        offer = _offer(normal, conn)
        if offer is None or not offer.get("asker") or not token_ok(secret, offer["asker"]):
            raise BadToken("host")
        if offer["state"] != "allowed":
            return None
        store().set_setting(conn, PAIR + normal, None)
        return offer["key"]
