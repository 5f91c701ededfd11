"""Statistics on the laptop: "Erase from the archive", for a school that must honour a request to
erase. One saved game goes whole; a person's name goes from every saved game, which keep their
classmates' results (`tables.erase_game`, `tables.erase_player`). Each asks for a confirmation."""

from __future__ import annotations

import streamlit as st

from engine import stats, tables
from pages import ui
from pages.i18n import _, n_


def _done(message: str, *confirmations: str) -> None:
    st.session_state["flash-ok"] = message
    for key in confirmations:  # a callback may reset its widgets; the next erasure asks again
        st.session_state[key] = False


def _erase_game(archive: stats.Archive, gid, label: str) -> None:
    room, game_no = archive.games.at[gid, "room"], int(archive.games.at[gid, "game_no"])
    if ui.attempt(tables.erase_game, room, game_no):
        _done(_("Erased from the archive: {game}.", game=ui.esc(label)), "erase-game-sure")


def _erase_player(name: str) -> None:
    try:
        count = tables.erase_player(name)
    except tables.SobremesaError as exc:
        st.session_state["flash"] = ui.refusal(exc)
        return
    text = n_(
        "{name} is erased from {n} saved game: their seat there is called by its number now.",
        "{name} is erased from {n} saved games: their seat there is called by its number now.",
        count,
        name=ui.esc(name),
    )
    _done(text, "erase-player-sure")


def section(archive: stats.Archive, games) -> None:
    """The expander, drawn in the Archive tab; its content runs only while it is open. `games()`:
    the selection's games by label, most recent first (the replay's choices)."""
    box = st.expander(_("Erase from the archive"), key="erase-open", on_change="rerun", icon=":material/delete:")
    if not box.open:
        return
    labels = games()
    with box:
        st.caption(
            _(
                "For a request to erase: a game goes with everything kept of it; a person's name is "
                "replaced in every saved game by their seat's number, and the games stay for the others. "
                "This cannot be undone."
            )
        )
        left, right = st.columns(2, gap="large")
        with left:
            gid = st.selectbox(_("A saved game"), list(labels), format_func=labels.get, key="erase-game")
            sure = st.checkbox(_("Yes, erase this game for good"), key="erase-game-sure")
            st.button(
                _("Erase the game"),
                key="erase-game-go",
                disabled=gid is None or not sure,
                on_click=_erase_game,
                args=(archive, gid, labels.get(gid, "")),
            )
        with right:
            people = sorted(set(archive.results["player"]) | set(archive.audience["member"]), key=str.casefold)
            name = st.selectbox(_("A person"), people, key="erase-player", index=None, placeholder=_("Choose a name"))
            sure = st.checkbox(_("Yes, erase this name from every saved game"), key="erase-player-sure")
            st.button(
                _("Erase the name"),
                key="erase-player-go",
                disabled=not name or not sure,
                on_click=_erase_player,
                args=(name or "",),
            )
