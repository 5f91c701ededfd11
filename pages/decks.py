"""Choosing a picture deck, and uploading one of your own."""
from __future__ import annotations

import streamlit as st

from engine import pictures, tables
from pages import ui

IMAGE_TYPES = ["zip", "png", "jpg", "jpeg", "webp", "gif", "bmp"]


def fewest_cards(game: str) -> tuple[int, int]:
    """The smallest table of this game, and the pictures a deck needs for it."""
    g = tables.games()[game]
    seats = g.seat_range(g.defaults)[0]
    return seats, g.min_cards(g.defaults, seats)


def _upload(game: str) -> None:
    seats, least = fewest_cards(game)
    with st.expander("Upload your own deck (pictures or a .zip)"):
        st.caption(f"At least {least} pictures for {seats} players. Portrait pictures look best; "
                   "others are cropped to fit the card.")
        with st.form("upload-deck", clear_on_submit=True):
            name = st.text_input("Deck name", max_chars=40, placeholder="e.g. Year 6 — the Romans")
            files = st.file_uploader("Pictures", type=IMAGE_TYPES, accept_multiple_files=True)
            if st.form_submit_button("Add this deck"):
                bar = st.progress(0.0, text="Reading the pictures…")

                def progress(done: int, total: int) -> None:
                    bar.progress(done / max(total, 1), text=f"Converting picture {min(done + 1, total)} of {total}…")

                try:
                    ids = pictures.import_deck(name, [(f.name, f.getvalue()) for f in files or []],
                                               min_cards=least, progress=progress)
                except pictures.DeckRejected as exc:
                    bar.empty()
                    st.error("The deck was not added: " + ui.esc(exc))
                else:
                    added = ids[0].split("/")[0]
                    st.session_state["deck_added"] = added
                    st.session_state["flash_ok"] = f"Deck '{name}' added with {len(ids)} cards."
                    st.rerun()


def deck_choice(game: str) -> str:
    names = pictures.deck_names()
    if st.session_state.get("deck_added") in names:
        st.session_state["deck"] = st.session_state.pop("deck_added")
    if "flash_ok" in st.session_state:
        st.success(ui.esc(st.session_state.pop("flash_ok")))
    if st.session_state.get("deck") not in names:
        st.session_state["deck"] = pictures.DEFAULT_DECK
    chosen = st.selectbox("Picture deck", names, key="deck",
                          format_func=lambda n: f"{n} ({len(pictures.deck_cards(n))} cards)")
    if ui.is_local_request():  # only the host, at the laptop that runs the server, adds decks
        _upload(game)
    else:
        st.caption("Decks of your own are added on the laptop that runs Sobremesa.")
    return chosen
