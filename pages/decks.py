"""Choosing a picture deck, and uploading one of your own."""

from __future__ import annotations

import streamlit as st

from engine import pictures, tables
from pages import ui
from pages.i18n import _, n_

IMAGE_TYPES = ["zip", "png", "jpg", "jpeg", "webp", "gif", "bmp"]


def fewest_cards(game: str) -> tuple[int, int]:
    """The smallest table of this game, and the pictures a deck needs for it."""
    g = tables.games()[game]
    seats = g.seat_range(g.defaults)[0]
    return seats, g.content.min_cards(g.defaults, seats)


def _upload(game: str) -> None:
    seats, least = fewest_cards(game)
    with st.expander(_("Upload your own deck (pictures or a .zip)")):
        st.caption(
            _(
                "At least {least} pictures for {seats} players. Portrait pictures look best; "
                "others are cropped to fit the card.",
                least=least,
                seats=seats,
            )
        )
        with st.form("upload-deck", clear_on_submit=True):
            name = st.text_input(
                _("Deck name"), max_chars=40, placeholder=_("e.g. Year 6 — the Romans"), key="deck-name"
            )
            files = ui.uploader(_("Pictures"), type=IMAGE_TYPES, accept_multiple_files=True, key="deck-files")
            if st.form_submit_button(_("Add this deck")):
                bar = st.progress(0.0, text=_("Reading the pictures…"))

                def progress(done: int, total: int) -> None:
                    bar.progress(
                        done / max(total, 1),
                        text=_("Converting picture {done} of {total}…", done=min(done + 1, total), total=total),
                    )

                try:
                    ids = pictures.import_deck(
                        name, [(f.name, f.getvalue()) for f in files or []], min_cards=least, progress=progress
                    )
                except pictures.DeckRejected as exc:
                    bar.empty()
                    st.error(_("The deck was not added: {reason}", reason=ui.esc(ui.refusal(exc))))
                else:
                    slug = ids[0].split("/")[0]  # the select lists names: the deck just added is chosen
                    added = next((n for n in pictures.deck_names() if pictures.slugify(n) == slug), slug)
                    st.session_state["deck_added"] = added
                    st.session_state["flash_ok"] = n_(
                        "Deck '{name}' added with {n} card.", "Deck '{name}' added with {n} cards.", len(ids), name=name
                    )
                    st.rerun()


def deck_choice(game: str) -> str:
    names = pictures.deck_names()
    if st.session_state.get("deck_added") in names:
        st.session_state["deck"] = st.session_state.pop("deck_added")
    if "flash_ok" in st.session_state:
        st.success(ui.esc(st.session_state.pop("flash_ok")))
    if st.session_state.get("deck") not in names:
        st.session_state["deck"] = pictures.DEFAULT_DECK
    chosen = st.selectbox(
        _("Picture deck"),
        names,
        key="deck",
        format_func=lambda n: n_("{deck} ({n} card)", "{deck} ({n} cards)", len(pictures.deck_cards(n)), deck=n),
    )
    if ui.is_local_request():  # only the host, at the laptop that runs the server, adds decks
        _upload(game)
    else:
        st.caption(_("Decks of your own are added on the laptop that runs Sobremesa."))
    return chosen
