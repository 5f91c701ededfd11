"""The page contract, over every game of `GAMES` (the tests' toy included) and each of its variants:
every phase a random table reaches renders under AppTest as the shared screen and as every seat
(and, for a game on the stage, as the stage draws its screens from the socket, pages/stage),
in English, Spanish and Italian, with no exception, no English message left in a translated page,
and no secret of another seat on the page.

A table plays through the service with random legal moves through its first turn (the next one's
first moment shows the reveal), then the host ends it. Each moment (phase × turn) is rendered once per viewer, the viewers' languages turning, so
each page is seen in every language over a game without tripling the cost.
"""

from __future__ import annotations

import random
import re

import pytest
from streamlit.testing.v1 import AppTest

from engine import i18n, tables
from engine.games import GAMES
from pages.stage import on_stage, wall_on_stage
from tests import stage_text
from tests.helpers import submit
from tests.kit import fill
from tests.pages.test_pages import ROOT, TIMEOUT
from tests.pages.test_pages_i18n import english_left, shown

pytestmark = pytest.mark.usefixtures("plain_cards")
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
LANGS = list(i18n.NAMES)  # en, es, it


def tables_to_play() -> list[tuple[str, dict, int]]:
    """One table per game and variant: the smallest it plays with."""
    found = []
    for name, game in GAMES.items():
        for variant in game.variants:
            counts = game.seat_counts(game.check_options(variant))
            found.append((name, variant, counts[0]))
    return found


def render(page: str, lang: str, **params) -> str:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    for k, v in params.items():
        at.query_params[k] = str(v)
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return shown(at)


def leaked(text: str, secrets: set) -> list[str]:
    """Another seat's secrets found on a page, as whole words."""
    return sorted(s for s in secrets if re.search(rf"(?<![\w-]){re.escape(str(s))}(?![\w-])", text))


def check(page_text: str, lang: str, state: dict | None, game, viewer, where: str, markup: str = "") -> None:
    """`markup`: a stage screen's HTML, searched for secrets too (an attribute is in the page)."""
    if lang != i18n.SOURCE:
        assert english_left(page_text, lang) == [], f"English left in {lang}, {where}"
    if state is None:
        return
    for seat in range(state["players"]):
        if seat != viewer:
            found = leaked(page_text + "\n" + markup, game.secrets(state, seat))
            assert found == [], f"seat {seat}'s secret shown at {where}"


@pytest.mark.parametrize("name,variant,players", tables_to_play(), ids=lambda v: v if isinstance(v, str) else str(v))
def test_every_moment_renders_for_every_viewer(name, variant, players):
    game = GAMES[name]
    room = tables.create_room(name, options=variant, seed=11)
    seats = [tables.join(room.code, n) for n in NAMES[:players]]
    member = tables.join_audience(room.code, "Lu")  # a member of the audience is a viewer like the wall
    member_seen = set()
    turn = 0
    own = {"held": 0, "shown": 0}  # moments a seat held secrets, and those its own page showed them

    def look(where: str) -> None:
        nonlocal turn
        state = tables.state_of(room.code)
        viewers = [None, *range(players)]
        for i, viewer in enumerate(viewers):
            lang = LANGS[(turn + i) % len(LANGS)]
            if viewer is None:
                text = render("table", lang, room=room.code, host=room.host_token)
            else:
                text = render("play", lang, room=room.code, seat=viewer, token=seats[viewer].token)
            markup = ""
            staged = on_stage(name) if viewer is not None else wall_on_stage(name) and state is not None
            if staged:  # the game's screen is the stage's
                markup = stage_text.screen(room.code, lang, None if viewer is None else seats[viewer].token)
                text += "\n" + stage_text.text(markup)
            check(text, lang, state, game, viewer, f"{where} as {'the wall' if viewer is None else viewer}", markup)
            if state is not None and viewer is not None and game.secrets(state, viewer):
                own["held"] += 1
                own["shown"] += bool(leaked(text + markup, game.secrets(state, viewer)))
        if where in ("the lobby", "the end"):
            look_member(where)
        turn += 1

    def look_member(where: str) -> None:
        """The member's phone, in the lobby, at the end, and the first time it has a pick to make
        in each moment: its screen with the picks on offer, then the page after a pick, tapped as
        the phone's socket sends it (a typed answer typed: Maudit Mot Dit's)."""
        lang = LANGS[turn % len(LANGS)]
        picks = tables.audience_legal(room.code, member.id, member.token)
        markup = ""
        if picks:
            markup = stage_text.screen(room.code, lang, member.token, member.id) + "\n"  # before the pick
            pick = dict(random.Random(where).choice(picks))
            for field in game.audience.of(tables.state_of(room.code)["options"]).text:
                pick[field] = "xyzzy"  # not a word of any deck: a secret found on the page is a leak
            who = tables.stage_who(room.code, member.token, member.id)
            tables.stage_move(room.code, who, member.token, f"contract {where}"[:64], pick)
        text = render("play", lang, room=room.code, member=member.id, token=member.token)
        markup += stage_text.screen(room.code, lang, member.token, member.id)
        text += "\n" + stage_text.text(markup)
        check(text, lang, tables.state_of(room.code), game, None, f"{where} as a member of the audience", markup)
        member_seen.add(where)

    look("the lobby")
    tables.start(room.code, room.host_token)
    rnd, seen = random.Random(5), set()
    for _ in range(600):
        view = tables.view(room.code)
        history = view.get("history_length", 0)
        if view["status"] != "playing":
            break
        moment = (view["phase"], history)
        if moment not in seen:
            seen.add(moment)
            look(f"{moment}")
        if f"{moment} picks" not in member_seen and tables.audience_legal(room.code, member.id, member.token):
            look_member(f"{moment} picks")
        if history >= 1:
            break
        waiting = view["waiting_for"]
        if not waiting:
            break
        seat = rnd.choice(waiting)
        moves = tables.legal(room.code, seat, seats[seat].token)
        if not moves:
            break
        move = fill(game, rnd.choice(moves), rnd, tables.state_of(room.code))
        move.pop("seat", None)
        try:
            submit(room.code, seat, seats[seat].token, move)
        except Exception:  # a sampled free field the rules refuse (a drawing off the sheet): another move
            continue
    assert len(seen) >= 2, f"the table reached only {seen}"
    if tables.view(room.code)["status"] == "playing":
        tables.end(room.code, room.host_token)
    look("the end")
    if game.audience is not None and game.audience.applies(game.check_options(variant)):
        assert len(member_seen) >= 3, f"the member's phone was seen only at {member_seen}"
    # The search sees secrets on a page: a seat's own page shows them (its hand, its word).
    assert own["shown"] or not own["held"], "no seat's own secrets were ever found on its own page"
