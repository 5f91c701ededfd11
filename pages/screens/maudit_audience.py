"""Maudit Mot Dit's audience on a member's phone: one typed answer after each clue, hidden from
everyone until the round ends (pages/audience.py)."""

from __future__ import annotations

import streamlit as st

from pages import ui
from pages.i18n import N_, _, n_

# A member whose answer found the word answers no more this round (pages/audience.py shows it).
MEMBER_DONE = N_("You found the word! 1 point, counted when the round ends. No more answers this round.")


def member(view, offered: list[dict], mine: list[dict], act) -> None:
    if mine:
        said = ", ".join(p["answer"] for p in mine)
        st.caption(ui.esc(_("Your answers so far (secret until the round ends): {answers}", answers=said)))
    if not offered:
        st.info(_("Answer sent. Wait for the next clue."), icon="✅")
        return
    clue = offered[0]["clue"]
    st.markdown("### " + _("Your answer after clue {n}", n=clue))
    st.markdown(" · ".join(f"**{ui.esc(c['clue'])}**" for c in view["clues"]))  # the clues so far, public
    with st.form(f"member-answer-{view['history_length']}-{clue}", clear_on_submit=True):
        typed = st.text_input(_("One answer for this clue"), max_chars=40)
        if st.form_submit_button(_("Send my answer"), type="primary", use_container_width=True):
            act({"type": "answer", "clue": clue, "answer": typed})
            st.rerun(scope="fragment")  # a pick bumps no version: this phone shows it at once


def audience_line(counts: dict, view) -> str:
    return " · ".join(
        n_("{n} found it after clue {clue}", "{n} found it after clue {clue}", c, clue=int(k) + 1)
        for k, c in sorted(counts.items(), key=lambda kv: int(kv[0]))
    )
