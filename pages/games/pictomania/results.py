"""Pictomania's Streamlit pieces around the stage: the drawer's word over the pad (CSS), and the
keepsakes a scored round gives, "Save the drawings" (animated drawings, the contact sheet, the
whole game on the laptop). The round's answers are the stage's (pages/games/pictomania/screens.py)."""

from __future__ import annotations

import io
import re
import zipfile

import streamlit as st

from pages import keepsakes, ui
from pages.i18n import _

_CSS = """
<style>
  @media (max-width: 640px) { [data-testid="stMainBlockContainer"] { padding: .8rem .5rem 2rem; } }
  .pm-secret { font-size: 1.55rem; font-weight: 800; background: #2A1F1A; color: #FBF5EC; border-radius: 12px;
    padding: .45rem .8rem; margin: .2rem 0 .4rem; }
  .pm-secret small { display: block; font-size: .8rem; font-weight: 500; opacity: .8; }
</style>
"""
CSS = re.sub(r"\s+", " ", _CSS)  # sent again with every rerun of the page: keep it small


# ---- keepsakes: the drawings as animated images and a contact sheet ----------------------------


def name(view, seat) -> str:
    names = view["names"]
    return names[seat] if seat is not None and 0 <= int(seat) < len(names) else "?"


def _one(code, game_no, round_no, seat=None):
    """A download's bytes, built when its button is pressed (pages/keepsakes.py keeps them)."""
    if seat is None:
        return lambda: keepsakes.sheet_of(keepsakes.files(code, game_no, round_no))
    return lambda: keepsakes.drawing_of(keepsakes.files(code, game_no, round_no), round_no, seat)


def _zip(code, game_no):
    def build():
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:  # GIF and PNG are compressed already
            for file_name, data in keepsakes.files(code, game_no, None).items():
                z.writestr(file_name, data)
        return out.getvalue()

    return build


def save_drawings(view, record) -> None:
    """ "Save the drawings": a phone saves its own drawing (an animated GIF) and the round's contact
    sheet; the wall every drawing of the round; on the server's laptop, the whole game as a zip.
    The images are built when a button is pressed."""
    code, game_no, round_no = view.get("code"), view.get("game_no"), record["round"]
    if not code or not game_no:
        return
    you, game = view.get("you"), view["game"]
    seats = [you] if you is not None else sorted(int(s) for s in record["assignments"])
    with st.popover(_("Save the drawings"), icon=":material/download:", key=f"pm-save-{round_no}-{you}"):
        for seat in seats:
            if not record["drawings"].get(str(seat)):
                continue
            label = _("My drawing, animated") if seat == you else _("{name}'s drawing, animated", name=name(view, seat))
            st.download_button(
                label,
                _one(code, game_no, round_no, seat),
                file_name=keepsakes.saved_as(game, code, game_no, round_no, seat),
                mime="image/gif",
                on_click="ignore",
                icon=":material/animated_images:",
                key=f"pm-gif-{round_no}-{you}-{seat}",
            )
        st.download_button(
            _("All the round's drawings, with their words"),
            _one(code, game_no, round_no),
            file_name=keepsakes.saved_as(game, code, game_no, round_no),
            mime="image/png",
            on_click="ignore",
            icon=":material/image:",
            key=f"pm-sheet-{round_no}-{you}",
        )
        if you is None and ui.is_local_request():
            st.download_button(
                _("The whole game's drawings (zip)"),
                _zip(code, game_no),
                file_name=keepsakes.saved_as(game, code, game_no),
                mime="application/zip",
                on_click="ignore",
                icon=":material/folder_zip:",
                key=f"pm-zip-{round_no}",
            )
