"""Pictomania's shared pieces: the look (CSS), names, and a scored round revealed (answers, guesses,
the scoring breakdown) with the scoreboard. Renders records from the view; no rules here."""

from __future__ import annotations

import functools
import io
import re
import zipfile

import streamlit as st

from engine import tables
from pages import ui
from pages.i18n import N_, _
from pages.screens.pictomania_sketch import fingerprint, replay_options, sheets

_CSS = """
<style>
  @media (max-width: 640px) { [data-testid="stMainBlockContainer"] { padding: .8rem .5rem 2rem; } }
  .pm-cards { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 6px; margin: .2rem 0 .6rem; }
  .pm-cards.pm-stack { grid-template-columns: 1fr; gap: 12px; }
  .pm-card { border: 2px solid var(--deck); border-radius: 10px; overflow: hidden; background: #FFFBF4; }
  .pm-card h4 { margin: 0; padding: 2px 8px; background: var(--deck); color: #fff; font-size: .8rem;
    font-weight: 800; letter-spacing: .02em; }
  .pm-card ol { margin: 0; padding: 3px 6px 5px 1.7em; font-size: .86rem; line-height: 1.3; }
  .pm-card li::marker { font-weight: 800; color: var(--deck); }
  .pm-card li.pm-mine { font-weight: 800; background: #FCE9C8; border-radius: 4px; }
  /* pm-big is the wall, whose rem is 28 px on a projector (pages/table.py): at least 24 px there */
  .pm-big .pm-card h4 { font-size: .95rem; padding: 4px 12px; }
  .pm-big .pm-card ol { font-size: .9rem; line-height: 1.35; padding: 6px 10px 8px 2.2em; }
  .pm-note { color: #6B5A4E; font-size: .95rem; }
  .pm-big .pm-note { font-size: .9rem; }
  .pm-secret { font-size: 1.55rem; font-weight: 800; background: #2A1F1A; color: #FBF5EC; border-radius: 12px;
    padding: .45rem .8rem; margin: .2rem 0 .4rem; }
  .pm-secret small { display: block; font-size: .8rem; font-weight: 500; opacity: .8; }
  .pm-black { display: inline-block; min-width: 1.9em; padding: .1em .35em; margin: 0 .15em; border-radius: 50%;
    background: #1F1A17; color: #fff; font-weight: 800; text-align: center; }
  .pm-black.pm-gone { background: #D9CBBD; color: #8A7A6E; text-decoration: line-through; }
  .pm-table { border-collapse: collapse; width: 100%; font-size: 1rem; }
  .pm-table th, .pm-table td { padding: .25rem .5rem; border-bottom: 1px solid #E6DACD; text-align: left; }
  .pm-table td.n, .pm-table th.n { text-align: right; font-variant-numeric: tabular-nums; }
  .pm-big .pm-table { font-size: .9rem; }
  .pm-ok { color: #2E7D32; font-weight: 700; } .pm-bad { color: #B03A2E; }
</style>
"""
CSS = re.sub(r"\s+", " ", _CSS)  # sent again with every rerun of the page: keep it small


def name(view, seat) -> str:
    names = view["names"]
    return names[seat] if seat is not None and 0 <= int(seat) < len(names) else "?"


def columns(count: int) -> int:
    return 3 if count in (3, 5, 6) else 2


# ---- a scored round ----------------------------------------------------------------------------


def signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def word_of(record, seat) -> tuple[str, str]:
    a = record["assignments"][str(seat)]
    return f"{a['letter']}{a['number']}", record["cards"][a["letter"]][a["number"] - 1]


# The scoring breakdown's columns: the first holds names, the others numbers (right-aligned).
_BREAKDOWN = (
    N_("Player"),
    N_("Tokens received"),
    N_("Black token"),
    N_("Unclaimed"),
    N_("Errors"),
    N_("Round"),
    N_("Game"),
)


def _head_row(labels: list[str]) -> str:
    """A header row of translated labels: names in the first column, numbers (right-aligned) after."""
    first, *rest = labels
    return f"<tr><th>{first}</th>" + "".join(f"<th class='n'>{h}</th>" for h in rest) + "</tr>"


def round_reveal(view, record, *, big: bool, tile: int = 300, cols: int | None = None) -> None:
    """A scored round, fully revealed: what each drew, who guessed what, the scoring breakdown.
    The wall replays every drawing at once as the round is revealed, with a button to see it
    again; a phone can replay its own drawing."""
    seats = sorted(int(s) for s in record["assignments"])
    names = {s: ui.esc(name(view, s)) for s in seats}
    tiles = []
    for s in seats:
        code, word = word_of(record, s)
        caption = [[name(view, s), "title"], [f"{code} {word}", "strong"]]
        if s in record["wrong_word"]:
            caption.append(["⚠️ " + _("wrong word"), "bad"])
        on = sorted((g for g in record["guesses"] if g["drawer"] == s), key=lambda g: g["order"])
        for g in on:
            right = g["number"] == record["assignments"][str(s)]["number"]
            caption.append(
                [f"{name(view, g['guesser'])} {'✔' if right else '✖ ' + str(g['number'])}", "ok" if right else "bad"]
            )
        if not on:
            caption.append([_("nobody guessed"), "note"])
        tiles.append(
            {
                "id": s,
                "seat": s,
                "strokes": record["drawings"].get(str(s), []),
                "caption": caption,
                **({} if view.get("you") is None else {"replay": s == view.get("you")}),
            }
        )
    rows = []
    for s in sorted(seats, key=lambda s: -record["scores"].get(str(s), 0)):
        t = record["tokens"][str(s)]
        received = sum(r["value"] for r in t["received"])
        got = " + ".join(str(r["value"]) for r in t["received"]) or "–"
        black = (
            "–"
            if t["black"] is None
            else (f"{t['black']} → {signed(t['black_counts'])}" if t["black_counts"] != t["black"] else f"{t['black']}")
        )
        sheep = " 🐑" if record.get("black_sheep") == s else ""
        unclaimed = -sum(t["unclaimed"])
        rows.append(
            f"<tr><td>{names[s]}{sheep}</td><td class='n'>{got}{' = ' + str(received) if len(t['received']) > 1 else ''}"
            f"</td><td class='n'>{black}</td><td class='n'>{unclaimed}</td><td class='n'>{t['errors']}</td>"
            f"<td class='n'><b>{signed(record['scores'].get(str(s), 0))}</b></td>"
            f"<td class='n'>{view['scores'][s] if s < len(view['scores']) else 0}</td></tr>"
        )
    sheep = record.get("black_sheep")
    footer = (
        "🐑 " + _("Black sheep: {name} (most wrong guesses): their black token counts against them.", name=names[sheep])
        if sheep is not None
        else _("No black sheep this round.")
    )
    table = (
        "<table class='pm-table'>"
        + _head_row([_(h) for h in _BREAKDOWN])
        + "".join(rows)
        + f"</table><div class='pm-note'>{footer}</div>"
    )
    wrap = "pm-big" if big else ""
    title = _("Round {round} — the answers", round=record["round"])
    st.html(f"<div class='{'sm-big' if big else ''}'><div class='sm-phase'>{title}</div></div>")
    st.html(f"<div class='{wrap}'>{table}</div>")
    if view.get("you") is None:
        once = fingerprint(view.get("code"), view.get("game_no"), record["round"], *record.get("card_ids", {}).values())
        replay = replay_options("all", auto=True, key=once)
    else:
        replay = replay_options("each")
    sheets(
        tiles,
        key=f"pm-reveal-{record['round']}-{'big' if big else 'small'}",
        cols=cols or columns(len(seats)),
        tile_px=tile,
        font="1.25rem" if big else ".9rem",
        replay=replay,
    )
    save_drawings(view, record)


# ---- keepsakes: the drawings as animated images and a contact sheet ----------------------------


@functools.lru_cache(maxsize=8)
def _keepsake(code: str, game_no: int, round_no: int | None, rounds: int) -> dict[str, bytes]:
    """A scored round never changes: build its images once (`rounds` keys the whole game's)."""
    return tables.keepsake(code, game_no, round_no)


def _one(code, game_no, round_no, rounds, pick):
    return lambda: next(v for k, v in _keepsake(code, game_no, round_no, rounds).items() if pick(k))


def _zip(code, game_no, rounds):
    def build():
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:  # GIF and PNG are compressed already
            for file_name, data in _keepsake(code, game_no, None, rounds).items():
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
    rounds = len(view.get("history") or []) or round_no
    you = view.get("you")
    prefix = f"pictomania-{code.lower()}-{game_no}-round{round_no}"
    seats = [you] if you is not None else sorted(int(s) for s in record["assignments"])
    with st.popover(_("Save the drawings"), icon=":material/download:", key=f"pm-save-{round_no}-{you}"):
        for seat in seats:
            if not record["drawings"].get(str(seat)):
                continue
            tag = f"-round{round_no}-{seat + 1}-"
            label = _("My drawing, animated") if seat == you else _("{name}'s drawing, animated", name=name(view, seat))
            st.download_button(
                label,
                _one(code, game_no, round_no, rounds, lambda k, t=tag: t in k),
                file_name=f"{prefix}-{seat + 1}.gif",
                mime="image/gif",
                on_click="ignore",
                icon=":material/animated_images:",
                key=f"pm-gif-{round_no}-{you}-{seat}",
            )
        st.download_button(
            _("All the round's drawings, with their words"),
            _one(code, game_no, round_no, rounds, lambda k: k.endswith("sheet.png")),
            file_name=f"{prefix}-sheet.png",
            mime="image/png",
            on_click="ignore",
            icon=":material/image:",
            key=f"pm-sheet-{round_no}-{you}",
        )
        if you is None and ui.is_local_request():
            st.download_button(
                _("The whole game's drawings (zip)"),
                _zip(code, game_no, rounds),
                file_name=f"pictomania-{code.lower()}-{game_no}.zip",
                mime="application/zip",
                on_click="ignore",
                icon=":material/folder_zip:",
                key=f"pm-zip-{round_no}",
            )


def scoreboard(view, *, big: bool) -> None:
    history = view.get("history") or []
    if not history:
        return
    order = sorted(range(len(view["names"])), key=lambda s: -view["scores"][s])
    # TRANSLATORS: a column of the scoreboard, "R" short for Round.
    rounds = [_("R{round}", round=r["round"]) for r in history]
    rows = "".join(
        f"<tr><td>{ui.esc(view['names'][s])}</td>"
        + "".join(f"<td class='n'>{signed(r['scores'].get(str(s), 0))}</td>" for r in history)
        + f"<td class='n'><b>{view['scores'][s]}</b></td></tr>"
        for s in order
    )
    head = _head_row([_("Player"), *rounds, _("Total")])
    st.html(f"<div class='{'pm-big' if big else ''}'><table class='pm-table'>{head}{rows}</table></div>")


def winners(view) -> tuple[list[str], int]:
    best = max(view["scores"]) if view["scores"] else 0
    return [n for n, s in zip(view["names"], view["scores"], strict=False) if s == best], best
