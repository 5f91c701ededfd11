const REG = (globalThis.__sobremesaPushRegistry ??= new Map());
const PING_MS = 25000;       // keep NATs / proxies awake
const DEAD_MS = 2 * PING_MS + 10000;
const FAILS_BEFORE_POLL = 3;
const MAX_BACKOFF_MS = 10000;
const CLOSE_GRACE_MS = 5000; // unmounted: keep the socket a bit (page switch)
const RETRY_RERUN_MS = 3000;
const ECHO_SETTLE_MS = 1200;  // after echoed changes (strokes), one rerun this long after the last // a trigger that produced no newer render is retried
const MAX_RETRIES = 3;

function wsUrl(c) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ticket = c.ticket == null ? "" : `?t=${encodeURIComponent(c.ticket)}`;
  return `${proto}//${location.host}/events/${encodeURIComponent(c.code)}${ticket}`;
}

function publish(c) {
  const rendered = Math.max(-1, ...[...c.mounts.values()].map((m) => m.rendered));
  const info = {
    code: c.code, connected: c.state === "open", state: c.state,
    version: c.latest, rendered, connects: c.connects, reruns: c.reruns, unchanged: c.unchanged,
    pushedAt: c.pushedAt,  // Date.now() when the newest version arrived
    shownAt: c.shownAt,    // version -> Date.now() when it was first on screen
    boot: c.pageBoot, socketBoot: c.socketBoot,  // the processes that drew the page and serve the socket
  };
  // A page whose game is on the stage (stage.js) reports the room itself: this listener only
  // reruns the page when the game starts, ends or goes back to the lobby.
  const staged = [...c.mounts.values()].every((m) => m.quiet);
  if (!staged) {
    (globalThis.__sobremesaPushRooms ??= {})[c.code] = info;
    globalThis.__sobremesaPush = info;
  }
  const hint = c.everOpened && (c.state === "reconnecting" || c.state === "polling");
  for (const m of c.mounts.values()) paint(m, c, hint);
}

function paint(m, c, hint) {
  if (!m.el) return;
  m.el.dataset.state = c.state;
  m.el.dataset.version = String(c.latest ?? "");
  m.el.dataset.hint = hint ? "1" : "0";
  if (m.text && m.el.textContent !== m.text) m.el.textContent = m.text;  // in the tab's language
  // Take no room in the layout unless the hint shows (it is position: fixed).
  if (m.box) m.box.style.display = hint ? "" : "none";
}

function setState(c, state) { c.state = state; publish(c); }

function rerun(c, m, value) {
  try { m.trigger("changed", value); c.reruns++; } catch (e) { console.warn("push: rerun failed", e); }
}

function allEchoed(c, rendered) {
  if (c.latest - rendered > 100) return false;
  for (let v = rendered + 1; v <= c.latest; v++) if (!c.echoed.has(v)) return false;
  return true;
}

// The server signed the fields this screen read outside its live spots, at the newest version, and
// they are as rendered: once its spots are drawn again the screen shows that version. Move its mark
// on instead of rerunning (engine/push/glance.py, engine/push/spots.py).
function unchanged(c, m) {
  if (!m.watch || c.sigVersion !== c.latest || c.sig !== m.watch.sig) return false;
  if (m.board && (c.spotsVersion !== c.latest || !c.spots)) return false;
  if (m.board) paintSpots(c, c.spots);
  m.rendered = c.latest; c.unchanged++;
  shown(c, c.latest);
  return true;
}

// A live spot is an element the page marked `data-sm-spot="<code>:<name>"` (pages/push.py `spot`);
// its HTML comes drawn by the server, from this viewer's own view.
function paintSpots(c, spots) {
  for (const [name, html] of Object.entries(spots || {})) {
    const sel = `[data-sm-spot="${CSS.escape(`${c.code}:${name}`)}"]`;
    for (const el of document.querySelectorAll(sel)) if (el.innerHTML !== html) el.innerHTML = html;
  }
  watchClocks();
}

// The pace clock's countdown (pages/clock.py): the server drew it with the milliseconds left then
// (`data-sm-left`); the browser counts down from when it first saw it, so no second costs a rerun,
// and a phone whose own clock is wrong still counts right. Same words as clock.py's `shown`. The
// timer runs only while a countdown is on the page (a screen without a clock wakes for nothing).
let clockTimer = null;
function watchClocks() {
  if (clockTimer === null && document.querySelector("[data-sm-left]")) clockTimer = setInterval(tickClocks, 250);
}
function tickClocks() {
  const now = performance.now();
  const shown = document.querySelectorAll("[data-sm-left]");
  if (!shown.length) { clearInterval(clockTimer); clockTimer = null; return; }
  for (const el of shown) {
    if (!el.dataset.smSeen) el.dataset.smSeen = String(now);
    const ms = Number(el.dataset.smLeft) - (now - Number(el.dataset.smSeen));
    const s = Math.max(0, Math.ceil(ms / 1000));
    const text = s <= 0 ? el.dataset.smUp
      : s <= 10 ? el.dataset.smHurry.replace("{n}", String(s))
      : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    if (el.textContent !== `⏱ ${text}`) el.textContent = `⏱ ${text}`;
    el.classList.toggle("sm-hurry", s <= 10);
  }
}

// When each version was first on screen (a listener is mounted last in its fragment, so its render
// means the whole fragment has rendered): what browser tests and benches wait on.
function shown(c, version) {
  if (!(version in c.shownAt)) c.shownAt[version] = Date.now();
  const old = Object.keys(c.shownAt);
  if (old.length > 200) for (const v of old.slice(0, 100)) delete c.shownAt[v];
}

function tellWatch(c) {
  if (!c.ws || c.ws.readyState !== 1 || c.watchSaid === c.watchKeys) return;
  try { c.ws.send(c.watchKeys); c.watchSaid = c.watchKeys; } catch (e) {}
}

function fire(c) {
  if (c.latest == null) return;
  for (const m of c.mounts.values()) {
    if (c.latest > m.rendered && unchanged(c, m)) continue;
    // One rerun in flight per mount: a newer push waits for it (its render calls fire() again)
    // instead of interrupting it, or six people drawing would keep every rerun from finishing.
    if (m.fired > m.rendered && Date.now() - m.firedAt < RETRY_RERUN_MS) continue;
    if (c.latest > m.rendered && c.latest > m.fired) {
      // Changes this screen already drew from their echoes (strokes) need no rerun right now:
      // one rerun a moment later brings the rest of the page along, instead of one per stroke.
      if (!m.settleDue && m.rendered >= 0 && allEchoed(c, m.rendered)) {
        m.settleTimer ??= setTimeout(() => { m.settleTimer = null; m.settleDue = true; fire(c); }, ECHO_SETTLE_MS);
        continue;
      }
      m.settleDue = false; clearTimeout(m.settleTimer); m.settleTimer = null;
      m.fired = c.latest;
      m.firedAt = Date.now();
      rerun(c, m, c.latest);
      clearTimeout(m.retryTimer);
      m.retryTimer = setTimeout(() => {
        if (c.latest > m.rendered && m.retries < MAX_RETRIES) { m.retries++; m.fired = -1; fire(c); }
      }, RETRY_RERUN_MS);
    }
  }
  publish(c);
}

function forceAll(c) {
  for (const m of c.mounts.values()) rerun(c, m, Date.now());
  publish(c);
}

function startPolling(c) {
  if (c.pollTimer || c.closing) return;
  c.pollTimer = setInterval(() => forceAll(c), c.pollMs);
  setState(c, "polling");
}

function stopPolling(c) { clearInterval(c.pollTimer); c.pollTimer = null; }

function scheduleRetry(c) {
  if (c.closing || c.retryTimer) return;
  const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** c.attempt);
  c.attempt++;
  c.retryTimer = setTimeout(() => { c.retryTimer = null; connect(c); }, base * (0.75 + Math.random() * 0.5));
}

function dropped(c, ws, code) {
  if (c.ws !== ws) return;  // already handled
  c.ws = null;
  clearInterval(c.pingTimer); c.pingTimer = null;
  if (c.closing) return;
  if (code === 4400) { setState(c, "refused"); return; }  // malformed code: give up
  // Ticket refused (expired while a phone slept, say): poll until a render brings a new one.
  if (code === 4401) { c.ticketRefused = true; c.gotHello = false; startPolling(c); return; }
  if (c.gotHello) c.resync = true; else c.fails++;
  c.gotHello = false;
  if (c.fails >= FAILS_BEFORE_POLL) startPolling(c);
  if (!c.pollTimer) setState(c, "reconnecting");
  scheduleRetry(c);
}

function connect(c) {
  if (c.closing) return;
  if (typeof WebSocket === "undefined") { startPolling(c); return; }
  let ws;
  try { ws = new WebSocket(wsUrl(c)); } catch (e) { dropped(c, null, 0); return; }
  c.ws = ws;
  ws.onopen = () => {
    c.lastMsg = Date.now();
    c.watchSaid = null; tellWatch(c);  // a new socket knows nothing of this screen yet
    clearInterval(c.pingTimer);
    c.pingTimer = setInterval(() => {
      if (Date.now() - c.lastMsg > DEAD_MS) { try { ws.close(); } catch (e) {} dropped(c, ws, 1006); return; }
      try { ws.send("ping"); } catch (e) {}
    }, PING_MS);
  };
  ws.onmessage = (ev) => {
    c.lastMsg = Date.now();
    let msg; try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg && msg.echo) {  // a public detail of a move, ahead of its rerun (e.g. a stroke)
      if (msg.echo.version != null) {
        c.echoed.add(msg.echo.version);
        if (c.echoed.size > 1000) c.echoed = new Set([...c.echoed].slice(-500));
      }
      globalThis.dispatchEvent(new CustomEvent("sobremesa-echo", { detail: { code: c.code, ...msg.echo } }));
      return;
    }
    if (msg && msg.spots && msg.at != null && !("version" in msg)) {  // spots again, no new version
      // Drawn at version `at`: a screen still rendering it (a rerun in flight, its presence read
      // before the phone came) takes them once that render lands (see the mount below).
      c.refreshed = { at: msg.at, spots: msg.spots };
      const mounts = [...c.mounts.values()];
      if (mounts.length && mounts.every((m) => m.board && m.rendered === msg.at)) paintSpots(c, msg.spots);
      return;
    }
    if (!msg || !("version" in msg)) return;
    if (msg.boot) c.socketBoot = msg.boot;
    if (msg.boot && c.pageBoot && msg.boot !== c.pageBoot && reloadOnce(msg.boot)) return;
    if (!c.gotHello) {  // first message on this socket: we are really connected
      c.gotHello = true; c.fails = 0; c.attempt = 0; c.connects++;
      stopPolling(c); c.everOpened = true; c.state = "open";
      if (c.resync && msg.version == null) { c.resync = false; forceAll(c); }  // server forgot: catch up
      c.resync = false;
    }
    if (msg.version != null && (c.latest == null || msg.version > c.latest)) {
      c.latest = msg.version; c.pushedAt = Date.now();
    }
    if (msg.version != null && msg.version === c.latest) {
      c.sig = msg.sig ?? null; c.sigVersion = msg.version;
      c.spots = msg.spots ?? null; c.spotsVersion = msg.version;
      if (c.refreshed && c.refreshed.at < msg.version) c.refreshed = null;
    }
    fire(c);
  };
  ws.onclose = (ev) => dropped(c, ws, ev.code);
  ws.onerror = () => {};  // onclose follows
}

// A phone that slept comes back with a socket that may be dead: check it now instead of waiting
// for the next ping, and take the wake lock again (the browser drops it when the tab hides).
const AWAKE = (globalThis.__sobremesaAwake ??= { want: false, lock: null, listening: false });

async function keepAwake(want) {
  AWAKE.want = want;
  try {
    if (want && !AWAKE.lock && navigator.wakeLock && document.visibilityState === "visible") {
      AWAKE.lock = await navigator.wakeLock.request("screen");
      AWAKE.lock.addEventListener("release", () => { AWAKE.lock = null; });
    } else if (!want && AWAKE.lock) {
      const lock = AWAKE.lock; AWAKE.lock = null; await lock.release();
    }
  } catch (e) { AWAKE.lock = null; }  // not allowed (battery saver, no user gesture yet): fine
}

function onVisible() {
  if (document.visibilityState !== "visible") return;
  if (AWAKE.want) keepAwake(true);
  for (const c of REG.values()) {
    if (c.closing) continue;
    if (!c.ws) { clearTimeout(c.retryTimer); c.retryTimer = null; c.attempt = 0; connect(c); continue; }
    const ws = c.ws, asked = Date.now();
    try { ws.send("ping"); } catch (e) {}
    setTimeout(() => {
      if (c.ws === ws && c.lastMsg < asked) { try { ws.close(); } catch (e) {} dropped(c, ws, 1006); }
    }, 4000);
  }
}

if (!AWAKE.listening) {
  AWAKE.listening = true;
  document.addEventListener("visibilitychange", onVisible);
}

function closeConn(c) {
  c.closing = true;
  clearTimeout(c.retryTimer); clearInterval(c.pingTimer); stopPolling(c);
  if (c.ws) { try { c.ws.close(1000); } catch (e) {} }
  c.ws = null;
  REG.delete(c.id);
}

function connFor(code, seat, ticket, pollMs) {
  const id = seat == null ? code : `${code}?seat=${seat}`;
  let c = REG.get(id);
  if (!c) {
    c = { id, code, seat, ticket, ticketRefused: false, ws: null, latest: null, echoed: new Set(), mounts: new Map(), state: "connecting", attempt: 0, fails: 0,
          gotHello: false, everOpened: false, resync: false, connects: 0, reruns: 0, unchanged: 0, pushedAt: null, pollMs,
          watchKeys: "null", watchSaid: null, sig: null, sigVersion: null, spots: null, spotsVersion: null, refreshed: null, shownAt: {},
          retryTimer: null, pingTimer: null, pollTimer: null, closeTimer: null, closing: false, lastMsg: 0 };
    REG.set(id, c);
    connect(c);
  }
  clearTimeout(c.closeTimer); c.closeTimer = null;
  c.pollMs = pollMs;
  if (ticket !== c.ticket) {
    c.ticket = ticket;
    if (c.ticketRefused && !c.ws) { c.ticketRefused = false; connect(c); }
  }
  return c;
}

// The socket's server process is not the one that drew this page: that one restarted or died, and
// the page's Streamlit session (its widgets' callbacks, its fragments) went with it, so a rerun or
// a tap would be lost ("the fragment ... does not exist anymore"). The page reloads itself, once
// per process (pages/assets/stage.js does the same).
function reloadOnce(boot) {
  const key = `sobremesa-reloaded:${boot}`;
  try {
    if (sessionStorage.getItem(key)) return false;
    sessionStorage.setItem(key, "1");
  } catch (e) { return false; }
  location.reload();
  return true;
}

export default function (component) {
  const { data, key, parentElement, setTriggerValue } = component;
  const code = String(data.code);
  const rendered = Number(data.version);
  const seat = data.seat == null ? null : String(data.seat);
  const ticket = data.ticket == null ? null : String(data.ticket);
  const c = connFor(code, seat, ticket, Math.max(250, Number(data.poll_ms) || 2000));
  if (data.boot) c.pageBoot = String(data.boot);
  for (const [k, other] of REG) {  // this mount moved to another room
    if (other !== c && other.mounts.delete(key) && other.mounts.size === 0) closeConn(other);
  }
  let m = c.mounts.get(key);
  if (!m) { m = { rendered: -1, fired: -1, firedAt: 0, retries: 0, retryTimer: null }; c.mounts.set(key, m); }
  if (rendered > m.rendered) { m.retries = 0; }
  m.rendered = rendered;
  shown(c, rendered);
  m.trigger = setTriggerValue;
  m.watch = data.watch && data.watch.sig ? { sig: String(data.watch.sig) } : null;
  m.quiet = !!data.quiet;
  m.board = data.board == null ? null : String(data.board);
  if (m.board && c.refreshed && c.refreshed.at === rendered) { paintSpots(c, c.refreshed.spots); c.refreshed = null; }
  c.watchKeys = JSON.stringify({ watch: data.watch ? data.watch.keys : null, board: m.board });
  tellWatch(c);
  m.el = parentElement.querySelector(".sobremesa-push");
  m.text = data.reconnecting ? String(data.reconnecting) : null;
  const host = parentElement.host ?? parentElement;
  m.box = host.closest?.('[data-testid="stElementContainer"]') ?? null;
  if (data.awake != null) keepAwake(!!data.awake);
  // A screen's own timer (a round that closes 3 s after its word is found): one rerun, later.
  clearTimeout(m.wakeTimer); m.wakeTimer = null;
  if (data.rerun_in_ms != null) m.wakeTimer = setTimeout(() => { m.wakeTimer = null; rerun(c, m, Date.now()); }, Number(data.rerun_in_ms));
  for (const ms of [50, 1000]) setTimeout(watchClocks, ms);  // the countdown this run drew, once it landed
  fire(c);  // a push may have arrived while this render was in flight
  return () => {
    clearTimeout(m.retryTimer); clearTimeout(m.wakeTimer); m.wakeTimer = null;
    if (c.mounts.get(key) === m) c.mounts.delete(key);
    if (c.mounts.size === 0 && !c.closing) c.closeTimer = setTimeout(() => closeConn(c), CLOSE_GRACE_MS);
  };
}
