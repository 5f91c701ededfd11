"""Drawings as data: engine strokes → inline SVG, and the drawing pad (streamlit-drawable-canvas).

The engine's canvas space (0..1000 × 0..750, y down) is the only truth. The SVG uses it as its
viewBox, so every screen scales the same strokes; the pad converts its fabric.js paths from
its own pixel size into that space, one `stroke` move per finished stroke.
"""

from __future__ import annotations

import hashlib
import json

import streamlit as st

from engine import tables
from engine.pictures.pictomania_keepsake import schedule
from pages import ui
from pages.i18n import N_, _

_RULES = tables.games()["pictomania"].content.constants
(CANVAS_WIDTH, CANVAS_HEIGHT), (WIDTH_MIN, WIDTH_MAX) = _RULES["canvas"], _RULES["width"]
ERASER, MAX_STROKE_POINTS, PALETTE = _RULES["eraser"], _RULES["stroke_points"], _RULES["palette"]

PAPER = "#ffffff"  # the sheet; the eraser paints with it
# The same eight colours, in the palette's order.
COLOUR_NAMES = dict(zip(PALETTE, ("⚫", "🔴", "🟠", "🟡", "🟢", "🔵", "🟣", "🟤"), strict=True))
TOOLS = [*PALETTE, ERASER]
SIZES = {"thin": 5, "medium": 10, "thick": 20}  # engine units (of 1000 across)
# TRANSLATORS: the pen sizes on the drawing pad, as short as possible.
SIZE_LABELS = {"thin": ("•", N_("thin")), "medium": ("●", N_("mid")), "thick": ("⬤", N_("thick"))}  # icon, word
ERASER_WIDTH = 32
PAD_PHONE = (344, 258)  # 4:3; fits a 360 px phone with the narrow padding below
PAD_WIDE = (560, 420)


# ---- engine strokes → SVG ----------------------------------------------------------------------


# The strokes' SVG path data is the stage's (no Streamlit there): the wall draws the same sheets.
from pages.games.pictomania.screens import paths  # noqa: E402


def svg(strokes: list, *, seat=None) -> str:
    """One drawing as standalone SVG markup (for exports and tests; st.html strips SVG, the pages use
    `sheets`)."""
    body = "".join(f'<path d="{d}" stroke="{c}" stroke-width="{w}"/>' for c, w, d in paths(strokes))
    who = "" if seat is None else f' data-seat="{int(seat)}"'
    return (
        f'<svg viewBox="0 0 {CANVAS_WIDTH} {CANVAS_HEIGHT}"{who} data-strokes="{len(strokes)}" '
        f'xmlns="http://www.w3.org/2000/svg"><rect width="{CANVAS_WIDTH}" height="{CANVAS_HEIGHT}" '
        f'fill="{PAPER}"/><g fill="none" stroke-linecap="round" stroke-linejoin="round">{body}</g></svg>'
    )


_SHEETS_HTML = '<div class="sheets"></div>'

_SHEETS_CSS = """
.sheets{display:grid;gap:14px;grid-template-columns:repeat(var(--cols,1),minmax(0,var(--tile,1fr)))}
@media (max-width:640px){.sheets.stack{grid-template-columns:1fr}}
figure{margin:0}
svg{display:block;width:100%;height:auto;aspect-ratio:4/3;background:#fff;border-radius:8px;outline:1px solid #D9CBBD;outline-offset:-1px}
svg.frozen{outline:3px solid #8FB8DE}
figcaption{display:flex;flex-wrap:wrap;gap:.15rem .6rem;align-items:baseline;padding:4px 2px 0;font-size:var(--font,1rem);line-height:1.3;color:#2A1F1A}
.title{font-weight:800;font-size:1.1em}.note{color:#6B5A4E}.ok{color:#2E7D32;font-weight:700}.bad{color:#B03A2E}.strong{font-weight:800}
.guess{display:flex;flex-wrap:wrap;gap:6px;align-items:center;padding-top:6px;font:600 .95rem "Source Sans",system-ui,sans-serif}
.guess button{min-width:40px;min-height:40px;border-radius:999px;border:1px solid #C9BBAE;background:#FFFBF4;font:700 1rem "Source Sans",system-ui,sans-serif;color:#2A1F1A;cursor:pointer}
.guess button.on{background:#2A1F1A;color:#FBF5EC;border-color:#2A1F1A}
.guess button.go{flex:1 1 100%;min-height:46px;border:0;border-radius:10px;background:#B03A2E;color:#fff}
.guess button:disabled{opacity:.5}
.guess small{flex:1 1 100%;color:#6B5A4E;font-weight:400}
.replay{display:flex;flex-wrap:wrap;gap:8px;align-items:center;padding-top:6px;font:600 .95rem "Source Sans",system-ui,sans-serif}
.replay:empty{display:none}
.replay button,.replay select{min-height:40px;border-radius:999px;border:1px solid #C9BBAE;background:#FFFBF4;padding:0 14px;font:700 1rem "Source Sans",system-ui,sans-serif;color:#2A1F1A;cursor:pointer}
.replay-all{grid-column:1/-1}
"""

_SHEETS_JS = ui.module("sheets.js")  # pages/assets/sheets.js, fetched once per browser, cached

_sheets = st.components.v2.component("sobremesa.sheets", html=_SHEETS_HTML, css=_SHEETS_CSS, js=_SHEETS_JS)


REPLAY_MS = 8000  # every drawing's replay lasts this long, however long it took to draw


def replay_options(controls: str, *, auto: bool = False, key: str | None = None) -> dict:
    """How `sheets` replays its drawings: controls "all" (one button replays every drawing: the
    wall), "each" (a button under each replayable drawing: a phone's own), "player" (play, pause
    and a speed: Statistics); `auto` replays them once as they first show (`key` names that once)."""
    return {
        "controls": controls,
        "auto": auto,
        "key": key,
        "ms": REPLAY_MS,
        "labels": {
            "again": _("Replay the drawings") if controls == "all" else _("Replay my drawing"),
            "play": _("Play"),
            "pause": _("Pause"),
            "speed": _("Speed"),
        },
    }


def sheets(
    tiles: list[dict],
    *,
    key: str,
    cols: int = 1,
    tile_px: int | None = None,
    font: str = "1rem",
    stack: bool = False,
    on_guess=None,
    replay: dict | None = None,
) -> None:
    """Drawings from their stroke data, in a grid (one component for many drawings: its code travels
    with every rerun). tiles: [{"id", "seat", "strokes", "frozen"?, "caption": [[text, class]],
    "guess"?: {"numbers", "label", "confirm" (with "{n}"), "hint", "nonce"}}]. `on_guess(drawer,
    number)` runs as a callback when a guess is confirmed. Text is set as text, never as HTML.
    `stack` puts the drawings in one column on a phone. `replay` (`replay_options`) lets the
    tiles with `"replay": True` (all of them when no tile says) come back stroke by stroke, in the
    browser."""

    def guessed():
        value = (st.session_state.get(key) or {}).get("guess")
        if on_guess and value:
            on_guess(int(value["drawer"]), int(value["number"]))

    shown = [
        {
            "id": str(t["id"]),
            "seat": t.get("seat"),
            "frozen": bool(t.get("frozen")),
            "caption": t.get("caption") or [],
            "guess": t.get("guess"),
            "paths": paths(t["strokes"]),
        }
        for t in tiles
    ]
    if replay:
        chosen = any("replay" in t for t in tiles)
        for tile, shown_tile in zip(tiles, shown, strict=True):
            if tile["strokes"] and (tile.get("replay") if chosen else True):
                shown_tile["plan"] = [[round(a, 4), round(b, 4)] for a, b in schedule(tile["strokes"])]
    _sheets(
        key=key,
        data={"tiles": shown, "cols": cols, "tile": tile_px, "font": font, "stack": stack, "replay": replay},
        on_guess_change=guessed,
        width="stretch",
        height="content",
    )


# ---- fabric.js paths ↔ engine strokes ----------------------------------------------------------


def _samples(path: list) -> list[tuple[float, float]]:
    """The pointer positions of a freedraw path: M, each Q's control point (the sample; its end
    is a midpoint), and the closing L."""
    points = []
    for command in path:
        op, args = command[0], command[1:]
        if op in ("M", "L") and len(args) >= 2:
            points.append((args[0], args[1]))
        elif op == "Q" and len(args) >= 4:
            points.append((args[0], args[1]))
        elif op == "C" and len(args) >= 6:
            points.append((args[4], args[5]))
    return points


def _thin(points: list, limit: int = MAX_STROKE_POINTS) -> list:
    if len(points) <= limit:
        return points
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def to_stroke(obj: dict, size: tuple[int, int]) -> dict | None:
    """A fabric Path drawn on a pad of `size` pixels → the engine's stroke move fields."""
    if obj.get("type") not in ("Path", "path"):
        return None
    w, h = size
    sx, sy = CANVAS_WIDTH / w, CANVAS_HEIGHT / h
    points = []
    for x, y in _samples(obj.get("path") or []):
        p = [min(CANVAS_WIDTH, max(0, round(x * sx))), min(CANVAS_HEIGHT, max(0, round(y * sy)))]
        if not points or p != points[-1]:
            points.append(p)
    if not points:
        return None
    colour = str(obj.get("stroke") or "#000000").lower()
    width = min(WIDTH_MAX, max(WIDTH_MIN, round(float(obj.get("strokeWidth") or 1) * sx)))
    return {"points": _thin(points), "width": width, "color": ERASER if colour == PAPER else colour}


def to_fabric(strokes: list, size: tuple[int, int]) -> dict:
    """Engine strokes → an `initial_drawing` for a pad of `size` pixels (fabric positions each
    path from its own coordinates)."""
    w, h = size
    sx, sy = w / CANVAS_WIDTH, h / CANVAS_HEIGHT
    objects = []
    for s in strokes:
        pts = [(round(x * sx, 1), round(y * sy, 1)) for x, y in s["points"]]
        path = [["M", *pts[0]]] + [["L", *p] for p in (pts[1:] or pts[:1])]
        objects.append(
            {
                "type": "Path",
                "path": path,
                "fill": None,
                "stroke": PAPER if s["color"] == ERASER else s["color"],
                "strokeWidth": max(1.0, round(s["width"] * sx, 1)),
                "strokeLineCap": "round",
                "strokeLineJoin": "round",
            }
        )
    return {"version": "7.4.0", "objects": objects}


# ---- the pad -----------------------------------------------------------------------------------


def pad_size() -> tuple[int, int]:
    agent = (st.context.headers.get("User-Agent") or "") if st.context.headers else ""
    return PAD_PHONE if any(k in agent for k in ("Mobi", "Android", "iPhone")) else PAD_WIDE


def _objects(key: str) -> list:
    state = st.session_state.get(key) or {}
    raw = (state.get("drawing") or {}).get("raw") or {}
    return [o for o in raw.get("objects") or [] if o.get("type") in ("Path", "path")]


def _failed(act, move, move_id: str | None = None) -> bool:
    """`act` shows a refusal as the page's flash message; that message is how we learn of it."""
    before = st.session_state.get("flash")
    result = act(move, move_id) if move_id else act(move)
    return result is False or (st.session_state.get("flash") not in (None, before))


def _sync(key: str, size: tuple[int, int], act) -> None:
    """The pad sent its drawing (after a stroke, or its own undo/redo/reset): bring the engine level."""
    objects = _objects(key)
    known = st.session_state.get(key + ":known", 0)
    generation = (st.session_state.get(key + ":init") or {}).get("generation", 0)
    if len(objects) > known:
        for n, obj in enumerate(objects[known:], start=known):
            stroke = to_stroke(obj, size)
            # Its id, made from the pad's own drawing: a stroke sent twice (a rerun lost on a bad
            # network, then sent again) is played once (`tables.stage_move`'s move ids).
            made = hashlib.sha1(json.dumps(obj.get("path"), separators=(",", ":")).encode()).hexdigest()[:12]
            if stroke is not None and _failed(act, {"type": "stroke", **stroke}, f"pad-{generation}-{n}-{made}"):
                st.session_state[key + ":reload"] = True  # show the engine's drawing again
                return
            known += 1
    elif len(objects) < known:
        if not objects:
            failed = _failed(act, {"type": "clear"})
        else:
            failed = any(_failed(act, {"type": "undo"}) for _ in range(known - len(objects)))
        if failed:
            st.session_state[key + ":reload"] = True
            return
        known = len(objects)
    st.session_state[key + ":known"] = known


def _edit(key: str, act, move: dict) -> None:
    act(move)
    st.session_state[key + ":reload"] = True


def pad(view: dict, act, key: str) -> None:
    """The player's drawing pad and its tools. The canvas keeps a stable key and stable arguments
    across reruns (other players' strokes rerun this page often), so it is never reset under a
    finger; it is reloaded from the engine's strokes only on purpose: first show, undo, clear,
    a refused stroke. (st_canvas reloads whenever JSON.stringify(initial_drawing) changes, which
    would drop a stroke in progress: so the drawing passed in lives in session state.)"""
    # Imported here: the canvas registers its component from files, which needs a running app.
    from streamlit_drawable_canvas import st_canvas

    seat = view["you"]
    # Its own strokes change only when this phone draws, which reruns this page anyway: read without
    # watching them, so another player's stroke reruns no pad (pages/games/pictomania/pictomania.py, `above_stage`).
    drawings = view.peek("drawings") if hasattr(view, "peek") else view["drawings"]
    mine = (drawings or {}).get(str(seat), [])
    size = pad_size()
    ss = st.session_state
    loaded = ss.get(key + ":init")
    if loaded is None or loaded["size"] != size or ss.pop(key + ":reload", False):
        generation = loaded["generation"] + 1 if loaded else 0
        ss[key + ":init"] = loaded = {
            "size": size,
            "generation": generation,
            "drawing": {**to_fabric(mine, size), "sobremesa": generation},
        }
        ss[key + ":known"] = len(mine)
    ss.setdefault(key + ":tool", PALETTE[0])
    ss.setdefault(key + ":size", "medium")
    tool = ss.get(key + ":tool") or PALETTE[0]
    width = ERASER_WIDTH if tool == ERASER else SIZES.get(ss.get(key + ":size") or "medium", 10)
    st_canvas(
        key=key,
        width=size[0],
        height=size[1],
        background_color=PAPER,
        drawing_mode="freedraw",
        stroke_color=PAPER if tool == ERASER else tool,
        stroke_width=max(1, round(width * size[0] / CANVAS_WIDTH)),
        initial_drawing=loaded["drawing"],
        update_streamlit=True,
        on_change=lambda: _sync(key, size, act),
    )
    st.pills(
        _("Pen"),
        TOOLS,
        key=key + ":tool",
        label_visibility="collapsed",
        wrap=True,
        required=True,
        format_func=_tool_name,
    )
    with st.container(horizontal=True, vertical_alignment="center", gap="small", wrap=True):
        st.pills(
            _("Size"),
            list(SIZES),
            key=key + ":size",
            label_visibility="collapsed",
            required=True,
            format_func=_size_name,
        )
        st.button(
            "↩️ " + _("Undo"), key=key + ":undo", disabled=not mine, on_click=_edit, args=(key, act, {"type": "undo"})
        )
        with st.popover("🗑️", help=_("Clear the whole drawing"), disabled=not mine, key=key + ":clear-menu"):
            st.button(
                _("Yes, clear my whole drawing"),
                key=key + ":clear",
                type="primary",
                on_click=_edit,
                args=(key, act, {"type": "clear"}),
            )


def _tool_name(tool: str) -> str:
    """The colours show as their emoji (no words to translate); the eraser is named."""
    return "🧽 " + _("eraser") if tool == ERASER else COLOUR_NAMES.get(tool, tool)


def _size_name(size: str) -> str:
    icon, word = SIZE_LABELS[size]
    return f"{icon} {_(word)}"


def fingerprint(*parts) -> str:
    return hashlib.sha1("|".join(map(str, parts)).encode()).hexdigest()[:10]
