const NS = "http://www.w3.org/2000/svg";
const PAPER = "#ffffff";
const SHEET_ROOTS = (globalThis.__sobremesaSheetRoots ??= new Set());
const PICKS = (globalThis.__sobremesaGuessPicks ??= {});

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function sheet() {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 1000 750");
  const g = document.createElementNS(NS, "g");
  for (const [k, v] of [["fill", "none"], ["stroke-linecap", "round"], ["stroke-linejoin", "round"]]) g.setAttribute(k, v);
  svg.appendChild(g);
  svg.__drawn = [];
  return svg;
}

function paint(svg, tile) {
  svg.__tile = tile;
  if (svg.__play) return;  // a rerun during a replay: the replay goes on, and ends on these paths
  // Strokes only arrive at the end, or leave by undo/clear: keep the common prefix.
  const g = svg.firstChild, drawn = svg.__drawn, next = tile.paths;
  let keep = 0;
  while (keep < drawn.length && keep < next.length && drawn[keep] === next[keep][2]) keep++;
  while (g.childNodes.length > keep) g.lastChild.remove();
  for (const [colour, width, d] of next.slice(keep)) {
    const p = document.createElementNS(NS, "path");
    p.setAttribute("d", d); p.setAttribute("stroke", colour); p.setAttribute("stroke-width", width);
    g.appendChild(p);
  }
  svg.__drawn = next.map((p) => p[2]);
  if (tile.seat != null) {  // observable for tests and bench/stroke_latency.py: when each count first showed
    const seen = (globalThis.__sobremesaSheets ??= {});
    for (let n = 1; n <= next.length; n++) seen[`${tile.seat}:${n}`] ??= Date.now();
  }
  svg.setAttribute("data-strokes", String(next.length));
  svg.setAttribute("data-seat", String(tile.seat ?? ""));
  svg.classList.toggle("frozen", !!tile.frozen);
}

// ---- replays: the strokes come back one by one, in the order they were drawn ----------------
// Each replayable sheet keeps its full paths (`__tile`) and its plan ([start, end] of each stroke,
// fractions of the replay, from engine/pictures/pictomania_keepsake.schedule). One requestAnimationFrame loop moves
// every playing sheet; the stroke being drawn is a dash growing along it (pathLength 1).
const PLAYING = (globalThis.__sobremesaReplays ??= new Set());
const AUTOPLAYED = (globalThis.__sobremesaReplayed ??= new Set());
const FRAMES = (globalThis.__sobremesaReplayFrames ??= []);  // rAF times while replaying
let looping = false;

function strokePath(colour, width, d) {
  const p = document.createElementNS(NS, "path");
  p.setAttribute("d", d); p.setAttribute("stroke", colour); p.setAttribute("stroke-width", width);
  return p;
}

function frame(svg, f) {
  const g = svg.firstChild, paths = svg.__tile.paths, plan = svg.__tile.plan;
  let n = 0;
  while (n < plan.length && (plan[n][0] < f || f >= 1)) n++;
  while (g.childNodes.length > n) g.lastChild.remove();
  while (g.childNodes.length < n) g.appendChild(strokePath(...paths[g.childNodes.length]));
  const last = n ? g.childNodes[n - 1] : null;
  if (svg.__partial && svg.__partial !== last) {
    svg.__partial.removeAttribute("pathLength"); svg.__partial.removeAttribute("stroke-dasharray");
    svg.__partial = null;
  }
  if (last) {
    const [start, end] = plan[n - 1];
    if (end > f) {
      last.setAttribute("pathLength", "1");
      last.setAttribute("stroke-dasharray", `${Math.max(0.001, (f - start) / Math.max(end - start, 1e-9))} 2`);
      svg.__partial = last;
    } else if (svg.__partial === last) {
      last.removeAttribute("pathLength"); last.removeAttribute("stroke-dasharray"); svg.__partial = null;
    }
  }
  svg.setAttribute("data-shown", String(n));
}

function tick(now) {
  FRAMES.push(now);
  if (FRAMES.length > 5000) FRAMES.splice(0, FRAMES.length - 5000);
  for (const svg of PLAYING) {
    const r = svg.__play;
    if (!svg.isConnected || !r) { PLAYING.delete(svg); continue; }
    if (!r.paused) r.f += (now - (r.last ?? now)) * r.speed / r.ms;
    r.last = now;
    if (r.f >= 1) stop(svg); else frame(svg, r.f);
  }
  if (PLAYING.size) requestAnimationFrame(tick); else looping = false;
}

function play(svg, ms, speed) {
  if (!svg.__tile || !svg.__tile.plan) return;
  if (svg.__play && svg.__play.paused) { svg.__play.paused = false; svg.__play.last = null; }
  else {
    svg.__play = { f: 0, ms, speed: speed || 1, paused: false, last: null };
    svg.firstChild.replaceChildren(); svg.__drawn = []; svg.__partial = null;
    frame(svg, 0);
  }
  svg.setAttribute("data-replaying", "1");
  PLAYING.add(svg);
  if (!looping) { looping = true; requestAnimationFrame(tick); }
  svg.dispatchEvent(new Event("replay"));
}

function stop(svg) {
  PLAYING.delete(svg);
  svg.__play = null;
  svg.removeAttribute("data-replaying");
  svg.firstChild.replaceChildren(); svg.__drawn = []; svg.__partial = null;
  paint(svg, svg.__tile);
  svg.setAttribute("data-shown", String(svg.__tile.paths.length));
  svg.dispatchEvent(new Event("replay"));
}

function replayControls(svg, tile, replay) {
  if (!tile.plan || !replay) return [];
  const L = replay.labels || {};
  if (replay.controls === "each") {
    const b = el("button", "", L.again || "Replay");
    b.type = "button"; b.setAttribute("data-testid", "pm-replay");
    b.onclick = () => { svg.__play = null; play(svg, replay.ms, 1); };
    return [b];
  }
  if (replay.controls !== "player") return [];
  const toggle = el("button", "", L.play || "Play");
  toggle.type = "button"; toggle.setAttribute("data-testid", "pm-play");
  const speed = el("select");
  speed.setAttribute("data-testid", "pm-speed"); speed.setAttribute("aria-label", L.speed || "speed");
  for (const x of [0.5, 1, 2, 4]) {
    const o = el("option", "", `${x}×`); o.value = String(x); o.selected = x === 1; speed.appendChild(o);
  }
  const label = () => { toggle.textContent = svg.__play && !svg.__play.paused ? (L.pause || "Pause") : (L.play || "Play"); };
  toggle.onclick = () => {
    if (svg.__play && !svg.__play.paused) svg.__play.paused = true;
    else play(svg, replay.ms, Number(speed.value));
    label();
  };
  speed.onchange = () => { if (svg.__play) svg.__play.speed = Number(speed.value); };
  svg.addEventListener("replay", label);
  return [toggle, speed];
}

function guessRow(tile, send) {
  // Two taps: a number, then the confirm button; a guess cannot be taken back.
  const q = tile.guess, id = `${q.nonce}:${tile.id}`;
  const row = el("div", "guess");
  row.setAttribute("data-testid", "pm-guess");
  row.dataset.drawer = String(tile.seat);
  row.appendChild(el("span", "", q.label));
  let go = null;
  const buttons = q.numbers.map((n) => {
    const b = el("button", "", String(n));
    b.type = "button"; b.dataset.number = String(n);
    b.onclick = () => { PICKS[id] = PICKS[id] === n ? undefined : n; paintRow(); };
    row.appendChild(b);
    return b;
  });
  const hint = el("small", "", q.hint);
  const paintRow = () => {
    const n = PICKS[id];
    for (const b of buttons) b.classList.toggle("on", Number(b.dataset.number) === n);
    if (go) { go.remove(); go = null; }
    hint.remove();
    if (n != null) {
      go = el("button", "go", q.confirm.replace("{n}", n));
      go.type = "button"; go.setAttribute("data-testid", "pm-confirm");
      go.onclick = () => { go.disabled = true; send({ drawer: tile.seat, number: n, nonce: q.nonce }); };
      row.appendChild(go);
      row.appendChild(hint);
    }
  };
  paintRow();
  return row;
}

function pathD(points) {  // the same relative path data as sketch._path_d on the server
  let [x, y] = points[0];
  if (points.length === 1) return `M${x} ${y}l0 0`;
  const steps = [];
  for (const [px, py] of points.slice(1)) { steps.push(`${px - x} ${py - y}`); x = px; y = py; }
  return `M${points[0][0]} ${points[0][1]}l` + steps.join(" ");
}

// A stroke echoed by the server ahead of the rerun: draw it now if it is the next one of that sheet.
// Anything out of step (a missed echo, an undo) is left for the rerun, which repaints from data.
if (!globalThis.__sobremesaSheetsEcho) {
  globalThis.__sobremesaSheetsEcho = true;
  globalThis.addEventListener("sobremesa-echo", (ev) => {
    const e = ev.detail;
    if (e.kind !== "drawing") return;
    for (const root of SHEET_ROOTS) {
      if (!root.isConnected) { SHEET_ROOTS.delete(root); continue; }
      for (const sheet of root.querySelectorAll(`svg[data-seat="${e.seat}"]`)) {
        const drawn = sheet.__drawn || [];
        if (e.stroke && drawn.length === e.strokes - 1) {
          const d = pathD(e.stroke.points);
          const p = document.createElementNS(NS, "path");
          p.setAttribute("d", d);
          p.setAttribute("stroke", e.stroke.color === "eraser" ? PAPER : e.stroke.color);
          p.setAttribute("stroke-width", e.stroke.width);
          sheet.firstChild.appendChild(p);
          sheet.__drawn = [...drawn, d];
        } else if (!e.stroke && e.strokes < drawn.length) {  // undo or clear
          while (sheet.firstChild.childNodes.length > e.strokes) sheet.firstChild.lastChild.remove();
          sheet.__drawn = drawn.slice(0, e.strokes);
        } else continue;
        sheet.setAttribute("data-strokes", String(sheet.__drawn.length));
        const seen = (globalThis.__sobremesaSheets ??= {});
        seen[`${e.seat}:${sheet.__drawn.length}`] ??= Date.now();
      }
    }
  });
}

// The drawing library shows a floating toolbar of its own (undo, reset) when a finger hovers the
// pad: it covers the secret word above the pad and repeats our Undo and clear below it. Its styles
// live in its shadow root, so the rule that hides it goes there.
function hideCanvasToolbars() {
  for (const host of document.querySelectorAll("[data-testid='stMain'] *")) {
    const shadow = host.shadowRoot;
    if (shadow && shadow.querySelector(".dc-root") && !shadow.querySelector("style[data-sobremesa]")) {
      const style = document.createElement("style");
      style.dataset.sobremesa = "1";
      style.textContent = ".dc-toolbar { display: none !important; }";
      shadow.appendChild(style);
    }
  }
}

export default function ({ parentElement, data, setTriggerValue }) {
  hideCanvasToolbars();
  setTimeout(hideCanvasToolbars, 400);  // the pad may mount after this component
  const root = parentElement.querySelector(".sheets");
  SHEET_ROOTS.add(root);
  const replay = data.replay;
  root.classList.toggle("stack", !!data.stack);
  root.style.setProperty("--cols", String(data.cols || 1));
  root.style.setProperty("--tile", data.tile ? `${data.tile}px` : "1fr");
  root.style.setProperty("--font", data.font || "1rem");
  const old = new Map([...root.children].map((f) => [f.dataset.id, f]));
  const send = (value) => setTriggerValue("guess", value);
  root.replaceChildren(...data.tiles.map((tile) => {
    let fig = old.get(tile.id);
    if (!fig) {
      fig = el("figure");
      fig.dataset.id = tile.id;
      fig.setAttribute("data-testid", "pm-sheet");
      fig.append(sheet(), el("figcaption"), el("div"), el("div", "replay"));
      fig.__controls = "";
    }
    paint(fig.children[0], tile);
    fig.children[1].replaceChildren(...(tile.caption || []).map(([text, cls]) => el("span", cls || "note", text)));
    fig.children[2].replaceChildren(...(tile.guess ? [guessRow(tile, send)] : []));
    const controls = JSON.stringify([!!tile.plan, replay && replay.controls, replay && replay.labels]);
    if (fig.__controls !== controls) {  // kept across reruns: a playing replay keeps its buttons
      fig.__controls = controls;
      fig.children[3].replaceChildren(...replayControls(fig.children[0], tile, replay));
    }
    return fig;
  }));
  if (replay && replay.controls === "all") {
    let bar = root.querySelector(".replay-all");
    if (!bar) {
      bar = el("div", "replay replay-all");
      const b = el("button", "", "");
      b.type = "button"; b.setAttribute("data-testid", "pm-replay-all");
      b.onclick = () => { for (const svg of root.querySelectorAll("svg")) { svg.__play = null; play(svg, replay.ms, 1); } };
      bar.appendChild(b);
    }
    bar.firstChild.textContent = (replay.labels || {}).again || "Replay";
    root.appendChild(bar);
  }
  if (replay && replay.auto && replay.key && !AUTOPLAYED.has(replay.key)) {
    AUTOPLAYED.add(replay.key);
    for (const svg of root.querySelectorAll("svg")) play(svg, replay.ms, 1);
  }
}
