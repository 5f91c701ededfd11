"""What every game's screens share, with no game's rules in it: a seat's name, the waiting line,
the wall's top (what the room does now, whom it waits on, at the end who won), the turn-by-turn
score table and the winners line. A game passes in what is its own (a team's mark, its own winners
line); nothing here looks at a game's name or variant."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from pages import push, ui
from pages.i18n import _, n_

SHOWN_TURNS = 8  # the latest turns fit across the wall; the total counts them all


def name_of(view, seat) -> str:
    return view["names"][seat] if seat is not None and 0 <= seat < len(view["names"]) else "?"


def waiting_line(view) -> str:
    waiting = view.get("waiting_for", [])
    if not waiting or view["phase"] in ("end", "lobby"):
        return ""
    return _("Waiting for: {names}", names=ui.names_of(view, waiting))  # raw: the caller escapes the line


def _escaped(view, line: Callable) -> str:
    return ui.esc(line(view))


def waiting_spot(view, line: Callable = waiting_line) -> str:
    """The waiting line as a live spot (`pages.push.spot`), for an `st.html`: `line(view)`, plain
    text escaped here, is drawn again by every push without a rerun. `line` reads only what the
    game's `Live.fields` names (and the header)."""
    return push.spot(view, "waiting", _escaped, line)


def waiting_note(view, line: Callable = waiting_line) -> None:
    """A phone's note of whom the table waits for, in a live spot; hidden while it says nothing."""
    st.html(f"<div class='sm-note'>{waiting_spot(view, line)}</div>")


def winners_line(view) -> str:
    """Who won with the highest score, as plain text with the names raw: every caller escapes it."""
    best = max(view["scores"], default=0)
    winners = [n for n, s in zip(view["names"], view["scores"], strict=False) if s == best]
    return "🏆 " + n_(
        "{names} wins with {points}",
        "{names} win with {points}",
        len(winners),
        names=" & ".join(winners),
        points=ui.points(best),
    )


def wall_status(view, line: str, waiting: str | Callable = waiting_line, winners: str | None = None) -> None:
    """The top of a shared screen: what the room does now (plain text, escaped here), whom it waits
    on (`waiting(view)`, a live spot: see `waiting_spot`; or a fixed text, redrawn only by a rerun),
    and at the end who won (`winners`, a game's own line, else the highest score)."""
    shown = ui.esc(waiting) if isinstance(waiting, str) else waiting_spot(view, waiting)
    st.html(
        f"<div class='sm-big'><div class='sm-phase'>{ui.esc(line)}</div><div class='sm-waiting'>{shown}</div></div>"
    )
    if view["phase"] == "end":
        ended = _("The host ended the game.") + " " if view.get("ended_by_host") else ""
        st.markdown(f"## {ended}{ui.esc(winners if winners is not None else winners_line(view))}")


def scoreboard(view, mark: Callable[[int], str] | None = None) -> None:
    """The scores on the wall, turn by turn: a table in the wall's own type size (a data grid
    draws 14 px text, unreadable from the back of a room). `mark(seat)` goes before a name (a team)."""
    history = view.get("history") or []
    if not history:
        return
    names = view["names"]
    shown = history[-SHOWN_TURNS:]
    earlier = len(history) > SHOWN_TURNS  # a column that says older turns are in the total
    # TRANSLATORS: a column of the scoreboard: the turn's number, as short as possible
    turns = [_("T{turn}", turn=t["turn"]) for t in shown]  # outside an f-string, where the extractor reads it
    head = ("<th>…</th>" if earlier else "") + "".join(f"<th>{t}</th>" for t in turns)
    rows = []
    for s in sorted(range(len(names)), key=lambda s: (-view["scores"][s], s)):
        cells = ("<td></td>" if earlier else "") + "".join(
            f"<td>{t['scores'].get(str(s), 0) or '·'}</td>" for t in shown
        )
        who = (mark(s) if mark else "") + ui.esc(names[s])
        rows.append(f"<tr><th class='sm-who'>{who}</th>{cells}<td class='sm-total'>{view['scores'][s]}</td></tr>")
    total = _("Total")
    st.html(
        f"<table class='sm-scores'><thead><tr><th></th>{head}<th>{total}</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
