const PICKS = (globalThis.__sobremesaPicks ??= {});
const PAINTERS = (globalThis.__sobremesaPainters ??= {});  // nonce -> repaint the live grid

// The enlarged card lives on document.body, outside the component's own styles: styled inline.
function zoom(src, alt) {
  const box = document.createElement("div");
  box.setAttribute("data-testid", "card-zoom");
  box.style.cssText = "position:fixed;inset:0;z-index:100000;background:rgba(20,14,10,.92);display:flex;" +
    "align-items:center;justify-content:center;cursor:zoom-out;";
  const img = document.createElement("img");
  img.src = src;
  img.alt = alt || "picture card";
  img.style.cssText = "display:block;width:auto;height:auto;max-width:94vw;max-height:94vh;" +
    "aspect-ratio:2/3;border-radius:14px;box-shadow:0 8px 40px rgba(0,0,0,.6);";
  box.appendChild(img);
  const close = () => { box.remove(); document.removeEventListener("keydown", onKey); };
  const onKey = (e) => { if (e.key === "Escape") close(); };
  box.onclick = close;
  document.addEventListener("keydown", onKey);
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
    lens.title = data.enlarge || "Enlarge";
    lens.onclick = (e) => { e.stopPropagation(); zoom(card.src, card.alt); };
    fig.appendChild(lens);
    fig.onclick = () => {
      if (!pick || card.disabled) return zoom(card.src, card.alt);
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
