"""Maudit Mot Dit's start-page part: its pitch, the host's word cards (ours or an uploaded list)
and the pace line's phase names. The game's screens are the stage's (pages/games/maudit_mot_dit/screens.py);
the rules are in engine/games/maudit_mot_dit.py."""

from __future__ import annotations

import streamlit as st

from engine import words
from pages import ui
from pages.i18n import N_, _, n_

PITCH = N_("Maudit Mot Dit — one-word clues, against the count (3–6 players)")
# The start page's pace line (pages/clock.py): each clue gets its own deadline.
PACE_NAMES = {
    "choose": N_("Choose the word"),
    "clues": N_("Each clue"),
    "spell": N_("Give a spell"),
    "verdict": N_("Judge the clues"),
}


def options() -> dict:
    """Our word cards (in the room's language), or a list of the host's own."""
    lists = words.word_lists()
    if st.session_state.get("mm-list-added") in lists:
        st.session_state["mm-words"] = st.session_state.pop("mm-list-added")
    if "mm-flash" in st.session_state:
        st.success(ui.esc(st.session_state.pop("mm-flash")))
    if st.session_state.get("mm-words") not in ("", *lists):
        st.session_state["mm-words"] = ""
    chosen = st.selectbox(
        _("Word cards"),
        ["", *lists],
        key="mm-words",
        format_func=lambda k: lists.get(k) or _("Ours, in the room's language"),
    )
    if ui.is_local_request():  # only the host, at the laptop that runs the server, adds lists
        _upload_list()
    return {"words": chosen or None}


def _upload_list() -> None:
    with st.expander(_("Upload your own word list (a text file)")):
        st.caption(
            _(
                "One card per line: 8 words separated by commas. Or one word per line, taken 8 at a "
                "time. At least {fewest} cards.",
                fewest=words.LIST_FEWEST,
            )
        )
        with st.form("mm-upload", clear_on_submit=True):
            name = st.text_input(_("List name"), max_chars=40, key="mm-list-name")
            file = ui.uploader(_("Word list"), type=["txt", "csv"], key="mm-list-file")
            if st.form_submit_button(_("Add this list")):
                try:
                    list_id, count = words.import_word_list(name, file.getvalue() if file else b"")
                except words.WordListRejected as exc:
                    st.error(_("The list was not added: {reason}", reason=ui.esc(ui.refusal(exc))))
                else:
                    st.session_state["mm-list-added"] = list_id
                    st.session_state["mm-flash"] = n_(
                        "List '{name}' added with {n} card.", "List '{name}' added with {n} cards.", count, name=name
                    )
                    st.rerun()
