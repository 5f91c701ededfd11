"""What the stage socket (engine/push/stage.py) is told a screen and a move are: the viewer a hello
proves, its screen drawn from its view (once per distinct screen, shared by every socket showing it),
and its taps played through the service. Mounted by pages/routes.py. Nothing here imports Streamlit:
it runs off the script thread, for sockets."""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urlencode, urlsplit

from markupsafe import escape

from engine import gate, i18n, outage, presence, tables
from engine.core import MoveError, SobremesaError
from engine.core.game import LANGUAGES
from engine.push.stage import Drawn, Peer, Screen
from pages import guard
from pages.stage import fragments, lobby, member as member_screen, remote, stage_of
from pages.stage.reading import Reading, page_key, valid_fields
from pages.stage.render import N_, render

_LOG = logging.getLogger(__name__)
KEPT = 2048  # screens kept, by what they show
SLOW = N_("Too many taps at once: wait a moment, then try again.")
OTHER_PHONE = N_("Your seat's other phone played first: here is what it played.")  # two phones, one seat


@dataclass
class Viewer:
    who: tables.Who
    token: str | None
    lang: str
    seat: int | None = None
    shown_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="milliseconds"))
    reads: frozenset | None = None  # the view's fields its screen read when last drawn
    page: tuple[str, ...] = ()  # the fields its page's own Streamlit part read (`reading.page_key`)
    port: int = 8501  # the server's, as the socket reached it: the wall's join link names it
    quiet: bool = False  # a page that only waits on the room (for the host): no screen is drawn
    remote: bool = False  # the host's key proved, its screen is the remote (else the host's wall)

    @property
    def screen(self) -> str:
        """What it is shown: "wall" (the wall, and the host's wall), "remote", "seat" or "member"."""
        if self.who.kind == "host":
            return "remote" if self.remote else "wall"
        return self.who.kind

    @property
    def role(self) -> str:
        # engine.push.live.refresh's roles: an audience's pick is news for walls and remotes
        return "wall" if self.who.kind == "host" else self.who.kind


_screens: dict[str, tuple[str, frozenset]] = {}
_guard = threading.Lock()
# When each viewer's socket drew each version, by (room, token hash): a tap made on a version its
# seat's other phone had already moved past is told so, across reconnections.
_drawn: dict[tuple[str, str], dict[int, str]] = {}


def _note_drawn(code: str, viewer: Viewer, version: int, at: str) -> None:
    with _guard:
        seen = _drawn.setdefault((code, viewer.who.token_hash), {})
        seen.setdefault(version, at)
        while len(seen) > 64:
            seen.pop(next(iter(seen)))
        while len(_drawn) > 4096:
            _drawn.pop(next(iter(_drawn)))


def _cached(key: str, draw, whole=None) -> tuple[str, frozenset]:
    """The screen kept under `key` (what the fields the viewer's last screen read are now), or one
    drawn and kept under its own key (what the fields it read are): a screen is found only by the
    fields it read itself, so the screen it names is the one those fields draw. `whole()`: the key of
    everything the screen is drawn from, its whole view included (members share one view object):
    at a phase change a hall's members read new fields, and the first member's draw serves the
    other members of the class, whose last screens read the old ones."""
    with _guard:
        found = _screens.get(key)
    every = whole() if found is None and whole is not None else None
    if every is not None:
        with _guard:
            found = _screens.get(every)
    if found is None:
        own, found = draw()
        with _guard:
            _screens[own] = found
            if every is not None:
                _screens[every] = found
            while len(_screens) > KEPT:
                _screens.pop(next(iter(_screens)))
    return found


# A hall's members mostly see the same screen but for their name: each member's screen is their
# class's (the members whose `me` is the same but for who they are), drawn once with this in place
# of the name, and the name put in (escaped as the template escapes it). tests/stage/
# test_member_classes.py holds every game's member screens to the ones drawn with the name itself.
SHARED_MEMBERS = True
_NAME = "nm" + secrets.token_hex(8)  # no one can type it: it changes with each process


def _personal(found, name: str):
    """A class's screen with a member's name put in: the screen, its fragments, and their keys (a
    socket compares its own keys; its name is in them). Where the name goes is found once per class's
    screen (`named`), not searched for in every member's (a hall's phase change: 300 members, a
    fifth of their draws went to finding the stand-in)."""
    text = str(escape(name))
    if not isinstance(found, Screen):
        return found.replace(_NAME, text)
    named = getattr(found, "named", None)
    if named is None:  # the same for every thread that works it out
        named = found.named = (
            found.html.split(_NAME),
            {n: (k, h.split(_NAME) if _NAME in h else None, h, parent) for n, (k, h, parent) in found.frags.items()},
        )
    whole, parts = named
    frags = {
        n: (k, h, parent) if split is None else (_fingerprint(k, text), text.join(split), parent)
        for n, (k, split, h, parent) in parts.items()
    }
    return Screen(text.join(whole), _fingerprint(found.shell, text), frags)


def _fingerprint(*parts) -> str:
    # repr, not JSON (half the cost, for every member at every version in a hall): as faithful for
    # the builtin values of views, `me` and extras; two equal dicts built in another order only
    # miss, and are drawn again.
    return hashlib.blake2b(repr(parts).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


_prints: dict[tuple, str] = {}


def _view_print(view: dict, reads: frozenset | None) -> str:
    """The fingerprint of what a screen read of a view (all of it, the first time): worked out once
    per view object and fields, so three hundred members showing the wall's view hash it once."""
    names = None if reads is None or "*" in reads or "version" in reads else tuple(sorted(reads))
    mark = (id(view), view.get("code"), view.get("version"), view.get("you"), names)
    with _guard:
        found = _prints.get(mark)
    if found is None:
        shown = {k: v for k, v in view.items() if k != "version"} if names is None else {k: view.get(k) for k in names}
        found = _fingerprint(shown, names)
        with _guard:
            _prints[mark] = found
            while len(_prints) > 4096:
                _prints.pop(next(iter(_prints)))
    return found


def said_of(lang: str, exc: SobremesaError, code: str, seat: int | None, token: str, since: str) -> str:
    """What a seat is told of its refused move: that its other phone played first, when that phone
    played since `since` (two phones share a seat: not an error, the screen shows what was played),
    else the refusal itself. The stage's taps and the drawing pad's strokes say it this one way."""
    if seat is not None and isinstance(exc, MoveError):
        try:
            if tables.played_since(code, seat, token, since):
                return i18n.translate(lang, OTHER_PHONE)
        except SobremesaError:
            pass
    return i18n.refusal(lang, exc)


class Serve:
    """The `engine.push.stage.Stage` of this app."""

    def admit(self, code: str, hello: dict, peer: Peer) -> Viewer | None:
        token, member, host = hello.get("token"), hello.get("member"), hello.get("host")
        if any(x is not None and not isinstance(x, str) for x in (token, member, host)):
            return None
        if host is not None:
            token, member = host, None
        try:
            who = tables.stage_who(code, None if host else token, member, device=_device(peer), host=host)
            look = tables.stage_look(code, who)
        except SobremesaError:
            return None
        page, quiet = valid_fields(hello.get("page")) or (), hello.get("quiet") is True
        remote = host is not None and hello.get("remote") is True
        if look is None:  # its token holds but it sees nothing (a seat taken out): its draw sends the blank screen
            lang = hello.get("lang") if hello.get("lang") in LANGUAGES else i18n.SOURCE
            return Viewer(who, token, lang, page=page, quiet=quiet, port=peer.port)
        lang = hello.get("lang") if hello.get("lang") in LANGUAGES else look["view"]["language"]
        viewer = Viewer(who, token, lang, look.get("seat"), page=page, quiet=quiet, port=peer.port, remote=remote)
        if viewer.seat is not None:
            presence.arrive(code, viewer.seat)
        return viewer

    def watch(self, viewer: Viewer, fields) -> None:
        viewer.page = valid_fields(fields) or ()

    def gone(self, code: str, viewer: Viewer) -> None:
        if viewer.seat is not None:
            presence.leave(code, viewer.seat)

    def connected(self, code: str, phone: bool, opened: bool) -> None:
        outage.socket(code, phone, opened)

    def draw(self, code: str, viewer: Viewer) -> Drawn | None:
        look = tables.stage_look(code, viewer.who)
        if look is None and viewer.who.kind == "host" and not viewer.remote:
            viewer.who, viewer.token = tables.Who("wall"), None  # the key was renewed: a wall like any
            look = tables.stage_look(code, viewer.who)
        if look is None:
            return None
        view = look["view"]
        page = None
        if viewer.page:  # the host's mark is a page's field too (a copy of the view only when read)
            page = page_key(
                {**view, "host": look.get("host")} if {"host", "*"} & set(viewer.page) else view, viewer.page
            )
        if viewer.quiet:  # a page waiting on the room: the version and its page's key, no screen
            return Drawn(look["version"], "quiet", str, page=page)
        stage = stage_of(view["game"])
        extra: dict = reveal_extra(view)  # every screen holds the reveal: the wall, the phones, the audience
        if viewer.screen == "wall":
            extra.update(_wall_extra(code, view, stage, viewer.port))
        elif viewer.screen == "remote":
            extra.update(remote.host_extra(code, viewer.token or "", view))
        elif viewer.who.kind == "seat" and view.get("last_round"):  # its links to save its drawings
            extra["token"] = viewer.token
        me = look.get("me")
        own_me = me
        if SHARED_MEMBERS and viewer.who.kind == "member" and me:  # drawn as their class, their name put in
            me = {**me, "id": "", "name": _NAME}
        key = _fingerprint(viewer.screen, viewer.lang, _view_print(view, viewer.reads), me, extra)
        if viewer.who.kind == "seat":  # when it was shown: a refused tap of its other phone's says so
            viewer.shown_at = datetime.now(UTC).isoformat(timespec="milliseconds")
            _note_drawn(code, viewer, look["version"], viewer.shown_at)

        def draw_screen() -> tuple[str, frozenset]:
            reading = Reading(view)
            fragments.viewer.set(f"{viewer.screen}:{viewer.who.token_hash or ''}")
            drawn = _screen(reading, me, viewer, stage, extra), frozenset(reading.read)
            # Kept by the fields this screen read, not the ones the last one did: another branch of
            # the same screen reads others, and the screen it drew must not answer for this one (a
            # member saw the last round's clues again once the new round looked like the old one).
            own = _fingerprint(viewer.screen, viewer.lang, _view_print(view, drawn[1]), me, extra)
            return own, drawn

        def whole() -> str | None:
            if me is own_me:  # a member's view is the wall's: one object for the whole audience
                return None
            return _fingerprint(viewer.screen, viewer.lang, _view_print(view, None), me, extra)

        def html() -> str:
            found, viewer.reads = _cached(key, draw_screen, whole)
            return _personal(found, own_me["name"]) if me is not own_me else found

        shown = _fingerprint(key, own_me["id"], own_me["name"]) if me is not own_me else key
        return Drawn(look["version"], shown, html, extra.get("until"), page)

    def crowd_stamp(self, code: str, viewers: list) -> tuple[int, list[str]] | None:
        """What each of these members' screens is drawn from now, with the version: what every
        member's is made of (`tables.members_stamp`, the view's fields their screens and pages
        read, the reveal) and the member's own part. While a member's holds, their screen did not
        change."""
        members = tables.members_stamp(code)
        look = tables.stage_look(code, tables.Who("wall"))  # a member's view is the wall's
        if members is None or look is None:
            return None
        reads: set | None = None
        if all(viewer.reads is not None for viewer in viewers):
            # a class's members share their reads' set: each distinct set is added once
            distinct = {id(f): f for viewer in viewers for f in (viewer.reads, viewer.page)}
            reads = set().union(*distinct.values())
        view = look["view"]
        every, own, nobody = members
        shared = _fingerprint(
            every, _view_print(view, frozenset(reads) if reads is not None else None), reveal_extra(view)
        )
        shared += ":"
        return look["version"], [shared + own.get(v.who.member, nobody) for v in viewers]

    def move(self, code: str, viewer: Viewer, move_id, move, at=None) -> dict:
        try:
            advice = self._advice(code, viewer, move)
            if advice:
                return advice | {"refused": move_id if isinstance(move_id, str) else None}
            if isinstance(move, dict):
                move = {k: v for k, v in move.items() if k != "anyway"}
            return tables.stage_move(code, viewer.who, viewer.token or "", move_id, move)
        except SobremesaError as exc:
            since = None
            if viewer.seat is not None and isinstance(exc, MoveError):
                with _guard:
                    since = _drawn.get((code, viewer.who.token_hash), {}).get(at) if isinstance(at, int) else None
            message = said_of(viewer.lang, exc, code, viewer.seat, viewer.token or "", since or viewer.shown_at)
            return {"refused": move_id if isinstance(move_id, str) else None, "message": message}

    def _advice(self, code: str, viewer: Viewer, move) -> dict | None:
        """A move the rules allow but the table may not want (Maudit Mot Dit's clue on the word's
        root): the game's stage `advise` says why, and the phone offers to send it anyway. Nothing
        is played until it is sent with `anyway`."""
        if viewer.seat is None or not isinstance(move, dict) or move.get("anyway") is True:
            return None
        look = tables.stage_look(code, viewer.who)
        stage = stage_of(look["view"]["game"]) if look else None
        advise = getattr(stage, "advise", None)
        message = advise(look["view"], move, viewer.lang) if advise else ""
        if not message:
            return None
        again = getattr(stage, "ANYWAY", "Send it anyway")
        return {
            "message": message,
            "again": {**move, "anyway": True},
            "again_label": i18n.translate(viewer.lang, again),
        }

    def slow_down(self, viewer: Viewer) -> str:
        return i18n.translate(viewer.lang, SLOW)

    def removed(self, viewer: Viewer, code: str) -> str:
        erased = not tables.room_exists(code)  # the laptop erased its game from the archive
        return render(
            "removed.html",
            viewer.lang,
            member=viewer.who.kind == "member",
            host=viewer.who.kind == "host",
            erased=erased,
        )


def _device(peer: Peer) -> gate.Device:
    """The phone behind a socket, as the pages count it (`ui.device`): its browser's own id, its
    address, and whether it is the laptop."""
    cookies = guard.cookies_of(peer.headers.get("cookie") if peer.headers is not None else None)
    return gate.Device(guard.device_id(cookies), peer.address, "", peer.laptop)


def _epoch(when: str) -> float:
    return datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp()


def reveal_extra(view: dict) -> dict:
    """The reveal as every screen draws it, while the room holds one: `revealing`, its steps'
    start (`reveal_from`, epoch ms: a screen drawn late, or again, joins at the right step), and
    `until` (epoch s: the screen is drawn again then; none while the host holds it). At the end of
    a game, `podium_from`: when the podium's places began to come (none: all shown)."""
    since, until = view.get("reveal_since"), view.get("reveal_until")
    now = time.time()
    if view.get("history_length") and since and (view.get("reveal_held") or until and _epoch(until) > now):
        extra: dict = {"revealing": True, "reveal_from": int(_epoch(since) * 1000)}
        if until and not view.get("reveal_held"):
            extra["until"] = _epoch(until)
        return extra
    if view.get("status") == "finished":
        began = until or since  # the last turn's reveal ended then, or the game did
        return {"podium_from": int(_epoch(began) * 1000)} if began else {}
    return {}


def _wall_extra(code: str, view: dict, stage, port: int = 8501) -> dict:
    extra: dict = {"connected": sorted(presence.recent(code))}
    try:
        base = tables.join_base(port)
    except Exception:  # the store cannot be read: the wall shows the code alone
        base = ""
    if base:  # the join link as a person types it (pages/routes.py sends /CODE on to the join page)
        extra["join"] = f"{urlsplit(base).netloc}/{view['code']}"
        if view["status"] == "lobby":  # the QR code holds the whole link
            extra["link"] = f"{base}/play?{urlencode({'room': view['code']})}"
    try:
        size = tables.wall_size(view)
        extra["audience"] = {"count": size["count"], "picked": size["picked"], "latest": size["latest"]}
    except SobremesaError:
        pass
    extra["sound"] = _sound(code, view.get("version"))
    shown = view.get("audience_reveal")
    line = getattr(stage, "audience_line", None)
    if shown and shown["turn"] == view.get("history_length", 0) - 1 and shown["counts"] and line:
        extra["audience_counts"] = shown["counts"]
    return extra


_sounds: dict[str, tuple] = {}


def _sound(code: str, version) -> dict | None:
    """The room's sound as the host set it: read once a version (setting it bumps the version)."""
    kept = _sounds.get(code)
    if kept is None or kept[0] != version:
        if len(_sounds) > 4096:
            _sounds.clear()
        kept = _sounds[code] = (version, tables.sound(code))
    return kept[1]


def _screen(view: dict, me, viewer: Viewer, stage, extra: dict) -> str:
    html = _screen_of(view, me, viewer, stage, extra)
    if viewer.screen != "wall":
        return html
    # Every wall's corners, the same for every game: the room's sound for the wall's cues
    # (pages/assets/sound.js), and how many phones wait for the host to let them in.
    waiting = len(view.get("asking") or ()) + len(view.get("joining") or ())
    return fragments.join(html, render("wall_corner.html", viewer.lang, sound=extra.get("sound"), waiting=waiting))


def _screen_of(view: dict, me, viewer: Viewer, stage, extra: dict) -> str:
    from pages.stage.render import Speaker

    if viewer.who.kind == "member":
        return member_screen.draw(view, me, viewer.lang, stage, extra)
    if viewer.screen == "remote":
        return remote.draw(view, viewer.lang, extra, stage)
    if viewer.screen == "wall" and view["status"] == "lobby":
        return lobby.draw(view, viewer.lang, extra)  # the wall's lobby: its seats and its audience
    if stage is None:
        return ""
    if viewer.screen == "wall":
        if "audience_counts" in extra:
            t = Speaker(viewer.lang)
            extra = {
                **extra,
                "audience_line": "👀 "
                + t._("The audience: {counts}", counts=stage.audience_line(extra["audience_counts"], t)),
            }
        return stage.wall(view, viewer.lang, extra)
    return stage.phone(view, viewer.lang, extra)


SERVE = Serve()
