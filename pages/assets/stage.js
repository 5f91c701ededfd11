// The stage: a game screen drawn on the server, sent over the room's socket and morphed in place
// (engine/push/stage.py, pages/stage). Taps on it go back over the same socket as moves, each with
// an id made here: a tap that got no answer is sent again, with the same id, on the next connection,
// and the server plays it once. One socket per (room, viewer) per tab, kept across Streamlit reruns.
import { Idiomorph } from "./idiomorph.js";
import { Sound } from "./sound.js";

const REG = (globalThis.__sobremesaStages ??= new Map());
const PICKS = (globalThis.__sobremesaStagePicks ??= {});
// How often a tab pings, until the server says (its boot message: an audience member's tab pings
// less often, engine/push/stage.MEMBER_PING_SECONDS); it drops a socket silent for three pings.
const PING_MS = 3000;
const DEAD_MS = 7000;   // a handshake not done by then is given up on (an open socket: two pings and a second)
const RETRY_MS = 3000;  // a tap with no answer by then is sent again (same id) on the next connection
const MAX_BACKOFF_MS = 5000;
const UNREACHABLE_MS = 10000;  // a page that never connected by then says so (and keeps trying)
const CLOSE_ORIGIN = 4403;     // the server refused this page's origin (pages/guard.py)

function newId() {
  const a = new Uint32Array(3);
  (globalThis.crypto || window.crypto).getRandomValues(a);
  return Array.from(a, (n) => n.toString(36)).join("-");
}

function metrics(s) {
  const rooms = (globalThis.__sobremesaPushRooms ??= {});
  rooms[s.code] = {
    code: s.code, version: s.version, rendered: s.rendered, connected: s.state === "open", state: s.state,
    connects: s.connects, reruns: s.reruns || 0, pushedAt: s.pushedAt, shownAt: s.shownAt, stage: true,
    sentAt: s.sentAt, boot: s.pageBoot, socketBoot: s.socketBoot, morphs: s.morphs || 0,  // the processes that drew the page and serve the socket
    bytes: s.bytes || 0, patches: s.patches || 0,  // screen bytes received; versions drawn in fragments
    unreachable: !!s.unreachable, pingMs: s.pingMs || PING_MS,  // how often it pings (the server said)
  };
  globalThis.__sobremesaPush = rooms[s.code];
  if (s.pill) s.pill.hidden = s.state === "open" || !s.everOpened || !!s.unreachable;
}

function connect(s) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try { ws = new WebSocket(`${proto}//${location.host}/stage/${encodeURIComponent(s.code)}`); }
  catch (e) { return later(s); }
  s.ws = ws;
  s.state = "connecting";
  if (!s.everOpened && !s.unreachTimer) s.unreachTimer = setTimeout(() => unreachable(s, true), UNREACHABLE_MS);
  // A handshake that never ends (the network drops everything) is given up on too.
  setTimeout(() => { if (s.ws === ws && s.state !== "open") abandon(s); }, DEAD_MS);
  ws.onopen = () => {
    if (s.ws !== ws) return;
    s.heard = Date.now();
    const hello = { token: s.token, member: s.member, lang: s.lang, page: s.fields, quiet: s.quiet };
    if (s.host) Object.assign(hello, { host: s.host, remote: s.kind === "remote", token: undefined });
    ws.send(JSON.stringify({ hello }));
    s.state = "open"; s.connects++; s.backoff = 250;
    for (const tap of s.taps.values()) {  // unanswered: sent again, and waited for again
      ws.send(JSON.stringify({ id: tap.id, move: tap.move, at: tap.at }));
      wait(s, tap);
    }
    metrics(s);
  };
  ws.onmessage = (e) => {
    if (s.ws !== ws) return;  // a socket given up on (half-open) that spoke at last
    s.heard = Date.now();
    let msg; try { msg = JSON.parse(e.data); } catch (_) { return; }
    if (msg.pong) {  // a member's tab is told here the versions its screen showed nothing of
      if (msg.version !== undefined && msg.version > s.version) {
        s.version = msg.version; s.rendered = s.version;
        if (s.shownAt[msg.version] === undefined) noteShown(s, msg.version);
        metrics(s);
      }
      return;
    }
    if (msg.boot !== undefined) {  // the server took this socket (a refused one is closed before a word)
      s.socketBoot = msg.boot; s.everOpened = true;
      s.pingMs = msg.ping > 0 ? msg.ping * 1000 : PING_MS;  // a server that says nothing: the old cadence
      metrics(s);
      clearTimeout(s.unreachTimer); unreachable(s, false);
      booted(s, msg.boot);
      return;
    }
    if (msg.removed !== undefined) { s.dead = true; removed(s, msg.removed); return; }
    if (msg.page !== undefined) { s.serverPage = msg.page; pageMoved(s); }
    if (msg.html !== undefined || msg.frags !== undefined) {
      s.pushedAt = Date.now();
      s.bytes = (s.bytes || 0) + e.data.length;  // bench/table_latency.py: what a move costs the Wi-Fi
      if (msg.now) s.skew = msg.now - Date.now();
      if (msg.html !== undefined) show(s, msg.html, msg.version);
      else if (!patch(s, msg.frags, msg.version)) ws.send(JSON.stringify({ again: true }));
      if (msg.ack !== undefined) answered(s, msg.ack, null);  // the tap's answer, with the screen it made
      return;
    }
    if (msg.ack !== undefined) { answered(s, msg.ack, null); return; }
    if (msg.refused !== undefined) { answered(s, msg.refused, msg.message, msg.again, msg.again_label); return; }
    if (msg.version !== undefined) {  // the screen as it is shows this version too
      s.version = Math.max(s.version, msg.version); s.rendered = s.version; s.pushedAt = Date.now();
      if (s.shownAt[msg.version] === undefined) noteShown(s, msg.version);
      metrics(s);
      return;
    }
  };
  ws.onclose = (e) => {
    if (s.ws !== ws) return;  // given up on already: its successor is under way
    s.ws = null;
    if (e.code === CLOSE_ORIGIN) unreachable(s, true);  // this address of the laptop is not the game's
    if (s.dead || s.gone) return;
    s.state = "reconnecting"; metrics(s);
    // A hello refused (4401) is tried again, as any drop: a link that no longer holds got its
    // "removed" screen before the close; a refusal without one (a process taking over) passes.
    later(s);
  };
  ws.onerror = () => {};
}

// The socket's server process is not the one that drew this page: that one restarted or died, and
// the page's Streamlit session (its widgets, the host's controls, a fragment's id) went with it. A
// tap there would be lost, so the page reloads itself, once per process (a cluster that sends the
// page and its socket to two processes would otherwise reload for ever).
function booted(s, boot) {
  if (!s.pageBoot || boot === s.pageBoot) return;
  const key = `sobremesa-reloaded:${boot}`;
  try {
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, "1");
  } catch (_) { return; }
  s.gone = true;
  keepTaps(s);
  location.reload();
}

// Taps not yet answered when the page reloads itself are sent again by the reloaded page, with
// their ids: the server plays each id once, so a tap made just as the server came back is not lost.
function keepTaps(s) {
  const taps = [...s.taps.values()].map(({ id, move, key, at, quiet }) => ({ id, move, key, at, quiet }));
  try { if (taps.length) sessionStorage.setItem(`sobremesa-taps:${s.key}`, JSON.stringify(taps)); } catch (_) {}
}

function keptTaps(key) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(`sobremesa-taps:${key}`) || "[]");
    sessionStorage.removeItem(`sobremesa-taps:${key}`);
    return new Map(kept.map((t) => [t.id, t]));
  } catch (_) { return new Map(); }
}

// A page that cannot reach the game (its socket refused, or never open in UNREACHABLE_MS) says so,
// with the link of the shared screen to this same page; it keeps trying behind the message. A page
// that was connected and lost its Wi-Fi says nothing of the kind: the pill shows it reconnecting.
function unreachable(s, on) {
  s.unreachable = on;
  if (s.unreach) s.unreach.hidden = !on;
  metrics(s);
}

// The page's own Streamlit part (the host's controls, the drawing pad, a phone waiting for the
// host) read some fields of its view: the server says with each screen what they are now. When that
// is not what the page was drawn with, the page reruns (its fragment, if it is in one), once per new
// value, and again after RERUN_AGAIN_MS if no render with it came.
const RERUN_AGAIN_MS = 4000;
function pageMoved(s) {
  if (!s.trigger || s.pageKey == null || s.serverPage == null || s.serverPage === s.pageKey) return;
  if (s.asked === s.serverPage && Date.now() - s.askedAt < RERUN_AGAIN_MS) return;
  s.asked = s.serverPage; s.askedAt = Date.now(); s.reruns = (s.reruns || 0) + 1;
  s.trigger("rerun", `${s.serverPage}:${s.reruns}`);
  clearTimeout(s.againTimer);
  s.againTimer = setTimeout(() => pageMoved(s), RERUN_AGAIN_MS + 50);
  metrics(s);
}

// Give a socket up without waiting for its close (a half-open one never completes the closing
// handshake): its events are ignored from now on, and a new one opens at once.
function abandon(s) {
  const ws = s.ws;
  if (!ws) return;
  s.ws = null;
  try { ws.close(); } catch (_) {}
  if (s.dead || s.gone) return;
  s.state = "reconnecting"; metrics(s);
  if (s.timer) { clearTimeout(s.timer); s.timer = null; }
  connect(s);
}

// Looked at every PING_MS while open: a ping once the server's cadence is due, and a socket silent
// past two of its pings and a second is given up on.
function heartbeat(s) {
  if (!s.ws || s.state !== "open") return;
  const every = s.pingMs || PING_MS;
  if (Date.now() - (s.heard || 0) > 2 * every + 1000) { abandon(s); return; }
  if (Date.now() - (s.pinged || 0) < every - 500) return;
  s.pinged = Date.now();
  try { s.ws.send("ping"); } catch (_) {}
}

function later(s) {
  if (s.timer) return;
  const wait = Math.min(MAX_BACKOFF_MS, s.backoff) * (0.75 + Math.random() * 0.5);
  s.backoff = Math.min(MAX_BACKOFF_MS, s.backoff * 2);
  s.timer = setTimeout(() => { s.timer = null; if (!s.gone) connect(s); }, wait);
}

function removed(s, html) {
  // No morph: everything goes, so no hand stays in the page.
  const box = document.createElement("div");
  box.innerHTML = html;
  document.body.replaceChildren(box);
  s.gone = true;
  try { s.ws && s.ws.close(); } catch (_) {}
}

// ---- drawing -------------------------------------------------------------------------------------
// The whole screen (a new socket, a reload, a screen whose frame changed), morphed in place.
function show(s, html, version) {
  s.html = html;
  s.morphs = (s.morphs || 0) + 1;  // screens drawn (bench/rerun_cost.py), not versions only acknowledged
  const root = s.root;
  if (!root) return;
  morph(root, html);
  shown(s, version);
}

// Only the fragments that changed (engine/push/stage.py: `Screen`), each morphed in its holder
// (`data-frag`), outer ones first; the rest of the screen is not touched. False: one had no holder
// here, and the tab asks for the whole screen.
function patch(s, frags, version) {
  s.morphs = (s.morphs || 0) + 1; s.patches = (s.patches || 0) + 1;
  const root = s.root;
  if (!root) { s.html = null; return false; }
  for (const [name, html] of Object.entries(frags)) {
    const holder = root.querySelector(`[data-frag="${CSS.escape(name)}"]`);
    if (!holder) return false;
    morph(holder, html);
  }
  s.html = null;  // the screen is the DOM now: a remount takes it from there
  const flash = root.querySelector(".sm-flash");  // as a whole screen's morph would (`kept`)
  if (flash && flash.textContent && !flash.querySelector("[data-move]")) flash.textContent = "";
  shown(s, version);
  return true;
}

function morph(el, html) {
  const typed = {};
  for (const input of el.querySelectorAll("input[id], textarea[id]")) typed[input.id] = input.value;
  const open = new Set([...el.querySelectorAll("details[open]")].map((d) => d.className));
  Idiomorph.morph(el, html, { morphStyle: "innerHTML", ignoreActiveValue: true, callbacks: { beforeNodeMorphed: kept } });
  for (const [id, value] of Object.entries(typed)) {
    const input = el.querySelector(`#${CSS.escape(id)}`);
    if (input && !input.value && value) input.value = value;
  }
  for (const d of el.querySelectorAll("details")) if (open.has(d.className)) d.open = true;
}

// When each version first showed; a bench that measures sets `__sobremesaShown` and is told at once
// (as the peer's client notes its own: no polling in the tab, whose CPU the bench counts).
function noteShown(s, version) {
  const at = Date.now();
  s.shownAt[version] = at;
  if (globalThis.__sobremesaShown) globalThis.__sobremesaShown(s.code, version, at, s.pushedAt);
}

// After a screen or its fragments were drawn: what the page does with what it shows.
function shown(s, version) {
  const root = s.root;
  for (const grid of root.querySelectorAll(".sm-cards[data-pick]")) paintPicks(grid);
  for (const tap of s.taps.values()) sending(s, tap, true);
  awake(s, !!root.querySelector('[data-awake="1"]'));
  autoMoves(s);
  for (const svg of root.querySelectorAll("svg[data-seat][data-strokes]")) {  // when each stroke count first showed:
    const seen = (globalThis.__sobremesaSheets ??= {});                      // bench/stroke_latency.py reads it
    for (let n = 1; n <= +svg.dataset.strokes; n++) seen[`${svg.dataset.seat}:${n}`] ??= Date.now();
  }
  steps(s);
  tick(s);
  if (s.sound) s.sound.shown(root);
  s.version = Math.max(s.version, version);
  s.rendered = s.version;
  if (s.shownAt[version] === undefined) noteShown(s, version);
  const keys = Object.keys(s.shownAt);
  if (keys.length > 400) for (const k of keys.slice(0, keys.length - 300)) delete s.shownAt[k];
  metrics(s);
}

// A question the server asked about a tap ("send it anyway?") stays through the morphs until the
// next tap: the room moving on would otherwise take it away before it is read.
// The focused element keeps its children through a morph (`ignoreActiveValue`, for a field's
// half-typed text); a focused button has none to keep, and kept its old label: a button just tapped
// ("sending…") that the next screen turns into another one (WebKit focuses a tapped button) showed
// "sending…" for ever. Its label is taken from the new screen here.
function kept(old, next) {
  if (old === document.activeElement && old.tagName === "BUTTON" && next && next.tagName === "BUTTON")
    old.innerHTML = next.innerHTML;
  return !(old.classList && old.classList.contains("sm-flash") && old.querySelector("[data-move]"));
}

// A move the screen makes by itself after a while (the holder's phone closes a found round after
// 3 s): sent once per key, and only if the screen still asks for it then.
function autoMoves(s) {
  s.autos ??= new Set();
  for (const el of s.root.querySelectorAll("[data-auto-move]")) {
    const key = el.dataset.autoKey;
    if (!key || s.autos.has(key)) continue;
    s.autos.add(key);
    setTimeout(() => {
      const still = s.root && s.root.querySelector(`[data-auto-key="${CSS.escape(key)}"]`);
      if (still) send(s, { id: newId(), move: JSON.parse(still.dataset.autoMove), key: null, at: s.version, quiet: true });
    }, +el.dataset.after || 0);
  }
}

function confirmOf(grid) {
  let el = grid.nextElementSibling;
  while (el && !(el.matches && el.matches("[data-testid=confirm-pick]"))) el = el.nextElementSibling;
  return el;
}

function paintPicks(grid) {
  const pick = +grid.dataset.pick;
  if (!pick) return;
  const chosen = (PICKS[grid.dataset.nonce] ??= []);
  const present = new Set([...grid.children].map((f) => f.dataset.value));
  for (let i = chosen.length - 1; i >= 0; i--) if (!present.has(chosen[i])) chosen.splice(i, 1);
  for (const fig of grid.children) {
    const on = chosen.includes(fig.dataset.value);
    fig.classList.toggle("picked", on);
    const b = fig.querySelector("button");
    if (b) b.setAttribute("aria-pressed", on ? "true" : "false");
  }
  const button = confirmOf(grid);
  if (!button) return;
  const min = +grid.dataset.pickMin || pick;
  const labels = JSON.parse(button.dataset.labels || "{}");
  if (labels[chosen.length]) button.textContent = labels[chosen.length];
  if (!button.dataset.sending) button.disabled = chosen.length < min || chosen.length > pick;
}

function tick(s) {
  const now = Date.now() + (s.skew || 0);
  for (const el of s.root ? s.root.querySelectorAll(".sm-clock") : []) {
    let ms;
    if (el.dataset.paused === "1") ms = +el.dataset.left;
    else if (el.dataset.deadline) ms = Math.max(0, +el.dataset.deadline - now);
    else continue;
    const sec = Math.ceil(ms / 1000);
    let text;
    if (sec <= 0) text = el.dataset.up;
    else if (sec <= 10) text = el.dataset.hurry.replace("{n}", sec);
    else text = `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}`;
    if (el.dataset.paused === "1") text = `⏸ ${el.dataset.pausedText} · ${text}`;
    else text = `⏱ ${text}`;
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("sm-hurry", sec <= 10);
    if (s.sound && el.dataset.paused !== "1") s.sound.countdown(sec, el.dataset.deadline);
  }
}

// A phone the table waits on keeps its screen on (a wake lock), and lets it sleep otherwise.
async function awake(s, wanted) {
  s.wantAwake = wanted;
  if (!navigator.wakeLock) return;
  if (wanted && !s.lock && document.visibilityState === "visible") {
    try { s.lock = await navigator.wakeLock.request("screen"); } catch (_) { s.lock = null; }
    if (!s.wantAwake && s.lock) { const l = s.lock; s.lock = null; l.release(); }
  } else if (!wanted && s.lock) {
    const l = s.lock; s.lock = null;
    try { await l.release(); } catch (_) {}
  }
}

// ---- taps ----------------------------------------------------------------------------------------
function moveOf(button, root) {
  const move = JSON.parse(button.dataset.move);
  let grid = button.previousElementSibling;
  while (grid && !(grid.classList && grid.classList.contains("sm-cards"))) grid = grid.previousElementSibling;
  const chosen = grid ? (PICKS[grid.dataset.nonce] || []).map((v) => JSON.parse(v)) : [];
  for (const [k, v] of Object.entries(move)) {
    if (v === "$picked") move[k] = chosen;
    else if (v === "$one") move[k] = chosen[0];
    else if (typeof v === "string" && v.startsWith("$text:")) {
      const input = root.querySelector(`[name="${CSS.escape(v.slice(6))}"]`);
      const text = input ? input.value.trim() : "";
      move[k] = text || null;
    }
  }
  return move;
}

function sending(s, tap, on) {
  const b = tap.key && s.root && s.root.querySelector(`[data-move="${CSS.escape(tap.key)}"]`);
  if (!b) return;
  if (on) { b.dataset.sending = "1"; b.disabled = true; b.setAttribute("aria-busy", "true"); b.dataset.label ??= b.textContent; b.textContent = s.sendingText; }
  else { delete b.dataset.sending; b.removeAttribute("aria-busy"); if (b.dataset.label) b.textContent = b.dataset.label; delete b.dataset.label; b.disabled = false; }
}

function tap(s, button) {
  if (button.dataset.sending) return;  // a double tap sends once
  const move = moveOf(button, s.root);
  if (button.dataset.need) {  // a field the move takes is empty: say so, send nothing
    const empty = Object.entries(JSON.parse(button.dataset.move))
      .find(([k, v]) => typeof v === "string" && v.startsWith("$text:") && move[k] === null);
    if (empty) {
      flash(s, button.dataset.need);
      const input = s.root.querySelector(`[name="${CSS.escape(empty[1].slice(6))}"]`);
      if (input) input.focus();
      return;
    }
  }
  // `at`: the version the tap was made on (the server tells a seat's other phone that played first).
  send(s, { id: newId(), move, key: button.dataset.move, at: s.version });
}

function send(s, t) {
  s.taps.set(t.id, t);
  if (s.gone) keepTaps(s);  // tapped while the page reloads itself: the reloaded page sends it
  s.sentAt = Date.now(); metrics(s);  // bench/faults.py times a tap from here
  if (!t.quiet) flash(s, "");
  sending(s, t, true);
  if (s.ws && s.state === "open") s.ws.send(JSON.stringify({ id: t.id, move: t.move, at: t.at }));
  wait(s, t);
}

// No answer in RETRY_MS: the socket may be half-open; a new one sends the tap again (same id).
function wait(s, t) {
  clearTimeout(t.retry);
  t.retry = setTimeout(() => { if (s.taps.has(t.id) && s.ws) abandon(s); }, RETRY_MS);
}

function answered(s, id, message, again, againLabel) {
  const t = s.taps.get(id);
  if (t) { clearTimeout(t.retry); s.taps.delete(id); sending(s, t, false); }
  if (message && !(t && t.quiet)) flash(s, message, again, againLabel);
}

function flash(s, message, again, againLabel) {
  // The wall has no place for a message in its screen: the host's key gets its answer in a corner.
  const box = s.root && (s.root.querySelector(".sm-flash") || (s.kind === "wall" && s.toast));
  if (!box) return;
  box.textContent = message || "";
  if (box === s.toast) { clearTimeout(s.toastTimer); s.toastTimer = setTimeout(() => { box.textContent = ""; }, 4000); }
  if (again && againLabel) {  // the server's question: the same move, sent as it is this time
    const b = document.createElement("button");
    b.type = "button"; b.className = "sm-act sm-primary"; b.textContent = againLabel;
    b.dataset.move = JSON.stringify(again);
    box.appendChild(b);
  }
}

// Enter in a field sends the move that takes its text, as its button would.
function onKey(s, e) {
  if (e.key !== "Enter" || !e.target.matches || !e.target.matches("input[name]")) return;
  const wanted = `"$text:${e.target.name}"`;
  const button = [...s.root.querySelectorAll("[data-move]")].find((b) => b.dataset.move.includes(wanted));
  if (button && !button.disabled) { e.preventDefault(); tap(s, button); }
}

function zoom(img) {
  const box = document.createElement("div");
  box.className = "sm-zoom";
  box.setAttribute("data-testid", "card-zoom");
  box.setAttribute("role", "dialog");
  const big = document.createElement("img");
  big.src = img.src; big.alt = img.alt || "";
  box.appendChild(big);
  const close = () => { box.remove(); document.removeEventListener("keydown", onKey); };
  const onKey = (e) => { if (e.key === "Escape") close(); };
  box.onclick = close;
  document.addEventListener("keydown", onKey);
  document.body.appendChild(box);
}

// A scene that plays in steps (a reveal, the podium): the screen names when its steps began
// (`data-reveal-from`, the server's epoch ms) and each part's step (`data-step-at`, ms after). Each
// part's CSS animation is set to start then, however late or often the screen was drawn: a wall
// reloaded mid-reveal, a second wall, or a morph joins at the step the room is at (a negative delay
// starts an animation part way through). The server's clock, not the phone's: `s.skew`.
function steps(s) {
  const scene = s.root && s.root.querySelector("[data-reveal-from]");
  if (!scene) return;
  const from = +scene.dataset.revealFrom - (s.skew || 0) - Date.now();
  for (const el of scene.querySelectorAll("[data-step-at]")) {
    const delay = `${Math.round(from + +el.dataset.stepAt)}ms`;
    if (el.style.animationDelay !== delay) el.style.animationDelay = delay;
  }
}

// The host's wall takes the keyboard, only when its socket proved the host's key (a wall opened
// with the room's code alone ignores every key): N Next, H Hold, P pause or resume, M mute, each
// sent as the remote's tap is; Esc opens and closes the page's host menu (pages/table.py). Not
// while a field is being typed in, nor over an enlarged card (Esc closes that).
const HOST_KEYS = { n: { host: "next" }, h: { host: "hold" } };
function onHostKey(s, e) {
  if (!s.host || s.kind !== "wall" || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  const at = e.target;
  if (at && (at.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(at.tagName))) return;
  const key = e.key.toLowerCase();
  let move = HOST_KEYS[key];
  if (key === "escape") {
    if (document.querySelector(".sm-zoom")) return;
    e.preventDefault();
    document.body.classList.toggle("sm-menu-open");
    return;
  }
  if (key === "p") {
    const clock = s.root && s.root.querySelector(".sm-clock");
    if (!clock) return;
    move = { host: clock.dataset.paused === "1" ? "resume" : "pause" };
  }
  if (key === "m" && s.sound) move = { host: "sound", ...s.sound.toggled() };
  if (!move) return;
  e.preventDefault();
  s.keyed = (s.keyed || 0) + 1;
  send(s, { id: newId(), move, key: null, at: s.version, quiet: false });
}

// A button that plays a scene's animations again (Pictomania's replay): no move, no server. An
// animation that ended and holds no value (`backwards` only) is not in getAnimations(): taking the
// animations away for one style pass starts every one of them again.
function restart(root, selector) {
  for (const el of root.querySelectorAll(selector)) {
    el.classList.add("sm-restart");
    void el.getBoundingClientRect();
    el.classList.remove("sm-restart");
  }
}

function onClick(s, e) {
  const again = e.target.closest("[data-restart]");
  if (again && s.root.contains(again)) { restart(s.root, again.dataset.restart); return; }
  const lens = e.target.closest(".zoom");
  if (lens && s.root.contains(lens)) { zoom(lens.closest("figure").querySelector("img")); return; }
  const pickButton = e.target.closest(".sm-card-pick");
  if (pickButton && s.root.contains(pickButton)) {
    const fig = pickButton.closest("figure"), grid = fig.parentElement;
    const pick = +grid.dataset.pick;
    const chosen = (PICKS[grid.dataset.nonce] ??= []);
    const at = chosen.indexOf(fig.dataset.value);
    if (at >= 0) chosen.splice(at, 1);
    else { chosen.push(fig.dataset.value); if (chosen.length > pick) chosen.shift(); }
    paintPicks(grid);
    return;
  }
  const button = e.target.closest("[data-move]");
  if (button && s.root.contains(button) && !button.disabled) { tap(s, button); return; }
  const img = e.target.closest("figure img");
  if (img && s.root.contains(img)) zoom(img);
}

export default function ({ parentElement, data, setTriggerValue }) {
  const key = `${data.code}|${data.kind}|${data.member || ""}|${data.token || ""}|${data.host ? "host" : ""}|${data.quiet ? "quiet" : ""}`;
  let s = REG.get(key);
  const root = parentElement.querySelector(".sm-stage-root");
  const fields = data.page || null;
  if (!s) {
    s = { key, code: data.code, token: data.token, member: data.member, lang: data.lang, quiet: !!data.quiet,
          kind: data.kind, host: data.host || null,
          fields, version: -1, rendered: -1, connects: 0, backoff: 250, shownAt: {}, taps: keptTaps(key),
          state: "connecting", mounts: 0 };
    REG.set(key, s);
  }
  clearTimeout(s.closeTimer); s.mounts++;
  // The reader chose another language: a new hello draws it in that one, on a new socket.
  if (s.lang !== data.lang) {
    s.lang = data.lang; s.fields = fields;
    if (s.ws) { try { s.ws.close(); } catch (_) {} }
  }
  // The page's own part read other fields this time (the lobby became the game): the socket is told.
  if (JSON.stringify(s.fields) !== JSON.stringify(fields)) {
    s.fields = fields;
    if (s.ws && s.state === "open") { try { s.ws.send(JSON.stringify({ page: fields })); } catch (_) {} }
  }
  s.sendingText = data.sending;
  s.pageBoot = data.boot;
  s.trigger = setTriggerValue;
  if (s.kind === "wall" && !s.sound) s.sound = new Sound(parentElement, data.sound, () => s.skew || 0);
  if (s.host && s.kind === "wall" && !s.onHostKey) {
    s.onHostKey = (e) => onHostKey(s, e);
    document.addEventListener("keydown", s.onHostKey);
  }
  s.pageKey = data.page_key ?? null;
  s.gone = false;
  if (s.root !== root) {
    const was = s.root;  // the screen as the last mount left it (its fragments drawn into it)
    s.root = root;
    root.addEventListener("click", (e) => onClick(s, e));
    root.addEventListener("keydown", (e) => onKey(s, e));
    s.pill = parentElement.querySelector(".sm-pill");
    s.toast = parentElement.querySelector(".sm-toast");
    if (s.pill) s.pill.textContent = data.reconnecting;
    s.unreach = parentElement.querySelector(".sm-unreachable");
    if (s.unreach) {
      const there = new URL(location.pathname + location.search, data.base);  // this page, at the QR's address
      const p = document.createElement("p"), a = document.createElement("a");
      p.textContent = data.unreachable;
      a.href = there.href; a.textContent = data.link;
      s.unreach.replaceChildren(p, a);
      s.unreach.hidden = !s.unreachable;
    }
    if (s.html) show(s, s.html, s.version);
    else if (was && was !== root && was.innerHTML) show(s, was.innerHTML, s.version);  // drawn in fragments: as it is
  }
  if (!s.ws && !s.timer && !s.dead) connect(s);
  if (!s.clock) s.clock = setInterval(() => tick(s), 250);
  if (!s.visible) {  // back from sleep: a socket that died while asleep is replaced at once
    s.visible = () => {
      if (document.visibilityState !== "visible" || s.gone || s.dead) return;
      s.lock = null;
      awake(s, s.wantAwake);
      if (!s.ws && !s.timer) connect(s);
      else if (s.ws && Date.now() - (s.heard || 0) > (s.pingMs || PING_MS) + 1000) abandon(s);  // slept: a new socket, at once
      else if (s.ws && s.state === "open") s.ws.send("ping");
    };
    document.addEventListener("visibilitychange", s.visible);
  }
  if (!s.ping) s.ping = setInterval(() => heartbeat(s), PING_MS);
  metrics(s);
  pageMoved(s);  // the socket may have heard of a newer page than this render's
  // Unmounted (another page, or no stage any more: a phone that took its seat): the socket goes,
  // unless the stage comes back at once (a rerun that moves it).
  return () => {
    s.mounts--;
    clearTimeout(s.closeTimer);
    s.closeTimer = setTimeout(() => { if (s.mounts <= 0) retire(s); }, CLOSE_GRACE_MS);
  };
}

const CLOSE_GRACE_MS = 3000;

function retire(s) {
  s.gone = true;
  clearInterval(s.ping); s.ping = null;
  clearInterval(s.clock); s.clock = null;
  clearTimeout(s.timer); s.timer = null;
  clearTimeout(s.unreachTimer); clearTimeout(s.againTimer);
  if (s.visible) { document.removeEventListener("visibilitychange", s.visible); s.visible = null; }
  if (s.onHostKey) { document.removeEventListener("keydown", s.onHostKey); s.onHostKey = null; }
  const ws = s.ws; s.ws = null;
  if (ws) { try { ws.close(1000); } catch (_) {} }
  REG.delete(s.key);
}
