"""A grid of picture cards: look at them, tap to enlarge, or pick k of them and confirm.

One `st.components.v2` component serves the hand, the table and the vote on every screen size.
Player names and labels are set with textContent in the browser, never as HTML.
"""
from __future__ import annotations

import streamlit as st

_HTML = '<div class="deck"></div>'

_CSS = """
.deck { --min: 150px; }
.grid { display: grid; gap: 10px; grid-template-columns: repeat(auto-fill, minmax(var(--min), 1fr)); }
figure { position: relative; margin: 0; border-radius: 12px; overflow: hidden; cursor: pointer;
  background: #2a1f1a; box-shadow: 0 2px 6px rgba(0,0,0,.25); outline: 4px solid transparent;
  transition: outline-color .12s, transform .12s; }
figure.picked { outline-color: #C4473A; transform: translateY(-4px); }
figure.off { opacity: .45; cursor: default; }
figure.glow { outline-color: #E0A93B; }
img { display: block; width: 100%; aspect-ratio: 2 / 3; object-fit: cover; }
.label { position: absolute; top: 6px; left: 6px; min-width: 1.6em; padding: 2px 8px; border-radius: 999px;
  background: rgba(251,245,236,.92); color: #2A1F1A; font: 700 calc(var(--min) / 7) system-ui, sans-serif;
  text-align: center; }
.badge { position: absolute; bottom: 0; left: 0; right: 0; padding: 4px 8px; background: rgba(42,31,26,.82);
  color: #FBF5EC; font: 600 calc(var(--min) / 11) system-ui, sans-serif; white-space: normal; }
.zoom { position: absolute; top: 4px; right: 4px; width: 34px; height: 34px; border: 0; border-radius: 50%;
  background: rgba(251,245,236,.85); font-size: 18px; line-height: 34px; cursor: zoom-in; }
.confirm { margin-top: 12px; width: 100%; min-height: 48px; border: 0; border-radius: 10px; background: #C4473A;
  color: white; font: 700 18px system-ui, sans-serif; }
.confirm:disabled { background: #b9aaa0; }
.lightbox { position: fixed; inset: 0; z-index: 10000; background: rgba(20,14,10,.92); display: flex;
  align-items: center; justify-content: center; cursor: zoom-out; }
.lightbox img { width: auto; max-width: 94vw; max-height: 94vh; border-radius: 14px; }
"""

_JS = r"""
const PICKS = (globalThis.__sobremesaPicks ??= {});
const PAINTERS = (globalThis.__sobremesaPainters ??= {});  // nonce -> repaint the live grid

function zoom(src) {
  const box = document.createElement("div");
  box.className = "lightbox";
  const img = document.createElement("img");
  img.src = src;
  box.appendChild(img);
  box.onclick = () => box.remove();
  document.body.appendChild(box);
}

export default function ({ parentElement, data, setTriggerValue }) {
  const root = parentElement.querySelector(".deck");
  // A rerun caused by someone else's move usually leaves these cards as they were: keep the DOM.
  const signature = JSON.stringify([data.cards, data.pick, data.button, data.min_width, data.nonce]);
  if (root.dataset.signature === signature) return;
  root.dataset.signature = signature;
  root.style.setProperty("--min", `${data.min_width}px`);
  const chosen = (PICKS[data.nonce] ??= []);
  const pick = data.pick || 0;
  root.replaceChildren();
  const grid = document.createElement("div");
  grid.className = "grid";
  let button = null;
  const paint = () => {
    for (const fig of grid.children) fig.classList.toggle("picked", chosen.includes(fig.dataset.id));
    if (button) button.disabled = chosen.length !== pick || data.sent;
  };
  for (const card of data.cards) {
    const fig = document.createElement("figure");
    fig.dataset.id = card.id;
    fig.setAttribute("data-testid", "card");
    if (card.disabled) fig.classList.add("off");
    if (card.glow) fig.classList.add("glow");
    const img = document.createElement("img");
    img.src = card.src;
    img.alt = card.alt || "picture card";
    img.loading = "lazy";
    fig.appendChild(img);
    if (card.label) {
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = card.label;
      fig.appendChild(label);
    }
    if (card.badge) {
      const badge = document.createElement("div");
      badge.className = "badge";
      badge.textContent = card.badge;
      fig.appendChild(badge);
    }
    const lens = document.createElement("button");
    lens.className = "zoom";
    lens.type = "button";
    lens.textContent = "⤢";
    lens.title = "Enlarge";
    lens.onclick = (e) => { e.stopPropagation(); zoom(card.src); };
    fig.appendChild(lens);
    fig.onclick = () => {
      if (!pick || card.disabled) return zoom(card.src);
      const at = chosen.indexOf(card.id);
      if (at >= 0) chosen.splice(at, 1);
      else { chosen.push(card.id); if (chosen.length > pick) chosen.shift(); }
      // A tap can land on a grid a rerun has just replaced: repaint whichever grid is live now.
      (PAINTERS[data.nonce] || paint)();
    };
    grid.appendChild(fig);
  }
  root.appendChild(grid);
  if (pick) {
    button = document.createElement("button");
    button.className = "confirm";
    button.type = "button";
    button.textContent = data.button;
    button.setAttribute("data-testid", "confirm-pick");
    button.onclick = () => {
      if (chosen.length !== pick) return;
      button.disabled = true;  // a double tap sends once; the server refuses a second move anyway
      data.sent = true;
      setTriggerValue("picked", { ids: [...chosen], nonce: data.nonce });
      // Sent while the connection was down (a server restart), the tap is lost: allow another.
      setTimeout(() => { data.sent = false; paint(); }, 4000);
    };
    root.appendChild(button);
  }
  if (data.nonce) PAINTERS[data.nonce] = paint;
  paint();
}
"""

_grid = st.components.v2.component("sobremesa.cards", html=_HTML, css=_CSS, js=_JS)


def card_src(card_id: str) -> str:
    return f"/cards/{card_id}"


def card_grid(cards: list[dict], *, key: str, pick: int = 0, button: str = "", min_width: int = 150,
              nonce: str = "", on_pick=None) -> None:
    """cards: [{"id", "label"?, "badge"?, "disabled"?, "glow"?}]. `on_pick(ids)` runs as a callback
    before the rerun, so the page that follows already shows the move's result."""
    def picked():
        value = (st.session_state.get(key) or {}).get("picked")
        if on_pick and value and value.get("nonce") == nonce:
            on_pick(list(value["ids"]))

    shown = [{**c, "src": card_src(c["id"])} for c in cards]
    _grid(key=key, data={"cards": shown, "pick": pick, "button": button, "min_width": min_width, "nonce": nonce},
          on_picked_change=picked)
