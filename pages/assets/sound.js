// The wall's sound: short cues made in the browser with Web Audio (no audio files), read from the
// screens the wall is drawn: a seat joining the lobby, the last 5 s of a countdown, everyone in (a
// phase of play ends and the next begins), each step of a reveal, and each step of the podium.
// Phones and members are silent: only the wall's stage makes one (pages/assets/stage.js). Every cue
// has its visual counterpart on the screen already (the name appears, the clock turns red, the
// reveal's steps, the podium's places).
//
// Mute and volume: the room's, as the host set them on the remote or with the wall's M (the screen
// carries them: `.sm-sound-setting`), else what this laptop chose last (localStorage). A browser
// keeps sound off until a gesture on the page: until then a small "Click for sound" shows in a
// corner, outside the stage's content. Each cue played goes into `window.__sobremesaSounds` as
// {cue, at, ran} (the tests read it; `ran`: the context ran for it, woken from its rest if it had
// to be): a muted or blocked cue is not played, and not logged.

const KEPT = "sobremesa-sound";
const NOTES = {  // [frequency Hz, start s, length s], a triangle wave each
  join: [[660, 0, 0.09], [990, 0.08, 0.14]],
  countdown: [[880, 0, 0.07]],
  everyone: [[523, 0, 0.12], [659, 0.1, 0.12], [784, 0.2, 0.2]],
  reveal: [[392, 0, 0.18], [587, 0.06, 0.3]],
  podium: [[523, 0, 0.15], [659, 0.14, 0.15], [784, 0.28, 0.15], [1047, 0.42, 0.45]],
};
const PLAYING = (scene) => scene && !["lobby", "reveal", "end", "remote"].includes(scene);
// A running AudioContext renders silence all the time: in Chromium 7 ms of CPU a second for a wall
// doing nothing (half of what an idle wall costs), and on a laptop its sound card kept awake. So the
// context rests (suspended) this long after the last cue and wakes for the next one; the page's
// permission to play, once given, stays (`allowed`), and no "Click for sound" comes back for a rest.
const REST_MS = 3000;

export class Sound {
  constructor(parent, labels, skew) {
    this.log = (globalThis.__sobremesaSounds ??= []);
    this.skew = skew || (() => 0);
    this.setting = this.remembered();
    this.done = new Set();  // cues already played or scheduled, by what they were for
    this.seats = null; this.scene = null;
    try { this.ctx = new (globalThis.AudioContext || globalThis.webkitAudioContext)(); } catch (_) { this.ctx = null; }
    globalThis.__sobremesaAudio = this.ctx;  // the tests read its state
    this.allowed = false;  // the context has run: the browser lets this page play
    this.rest = null;
    this.gate = document.createElement("button");
    this.gate.type = "button"; this.gate.className = "sm-sound-gate"; this.gate.hidden = true;
    this.gate.dataset.testid = "sound-gate"; this.gate.setAttribute("data-testid", "sound-gate");
    this.gate.textContent = "🔈 " + ((labels && labels.click) || "Click for sound");
    parent.appendChild(this.gate);
    const wake = () => { if (this.ctx && !this.allowed) this.ctx.resume().then(() => this.ran()); };
    for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, wake, { capture: true });
    if (this.ctx) this.ctx.onstatechange = () => this.ran();
    this.ran();
  }

  ran() {
    if (this.ctx && this.ctx.state === "running") {
      this.allowed = true;
      this.resting();
    }
    this.paint();
  }

  resting() {
    clearTimeout(this.rest);
    this.rest = setTimeout(() => { if (this.ctx.state === "running") this.ctx.suspend(); }, REST_MS);
  }

  remembered() {
    try { return { muted: false, volume: 70, ...JSON.parse(localStorage.getItem(KEPT) || "{}") }; }
    catch (_) { return { muted: false, volume: 70 }; }
  }

  paint() {
    this.gate.hidden = !this.ctx || this.allowed || this.setting.muted;
  }

  // M on the host's wall: the setting the host move sends (the room's, then every wall follows).
  toggled() { return { muted: !this.setting.muted, volume: this.setting.volume }; }

  // A screen was drawn: its setting, and the cues its change makes.
  shown(root) {
    const mark = root.querySelector(".sm-sound-setting");
    if (mark) {
      this.setting = { muted: mark.dataset.muted === "1", volume: +mark.dataset.volume };
      try { localStorage.setItem(KEPT, JSON.stringify(this.setting)); } catch (_) {}
      this.paint();
    }
    const stage = root.querySelector("[data-scene]");
    const scene = stage ? stage.dataset.scene : null;
    const seats = root.querySelectorAll(".sm-lobby-names li").length;
    if (scene === "lobby" && this.seats !== null && seats > this.seats) this.play("join");
    this.seats = scene === "lobby" ? seats : null;
    if (PLAYING(this.scene) && PLAYING(scene) && scene !== this.scene) this.play("everyone");
    const steps = root.querySelector("[data-reveal-from]");
    if (steps && (scene === "reveal" || scene === "end")) this.steps(steps, scene === "end" ? "podium" : "reveal");
    else if (scene === "end" && this.scene && this.scene !== "end") this.play("podium");  // ended by the host: all at once
    this.scene = scene;
  }

  // Each step of a reveal or of the podium, at its time on the server's clock: once per step.
  steps(scene, cue) {
    const from = +scene.dataset.revealFrom;
    const at = new Set([0, ...[...scene.querySelectorAll("[data-step-at]")].map((el) => +el.dataset.stepAt)]);
    for (const ms of at) {
      const key = `${cue}:${from}:${ms}`;
      if (this.done.has(key)) continue;
      this.done.add(key);
      const wait = from + ms - (Date.now() + this.skew());
      if (wait < -400) continue;  // a wall drawn late joins at the step the room is at, silently
      setTimeout(() => this.play(cue), Math.max(0, wait));
    }
  }

  countdown(sec, deadline) {
    if (sec < 1 || sec > 5) return;
    const key = `countdown:${deadline}:${sec}`;
    if (this.done.has(key)) return;
    this.done.add(key);
    this.play("countdown");
  }

  play(cue) {
    const { muted, volume } = this.setting;
    if (muted || !volume || !this.ctx || !this.allowed) return;
    const entry = { cue, at: Date.now(), ran: this.ctx.state === "running" };
    if (!entry.ran) this.ctx.resume().then(() => { entry.ran = this.ctx.state === "running"; });  // from its rest: the notes wait
    this.resting();
    const t0 = this.ctx.currentTime + 0.01;
    const level = 0.25 * (volume / 100);
    for (const [hz, start, length] of NOTES[cue]) {
      const osc = this.ctx.createOscillator(), gain = this.ctx.createGain();
      osc.type = "triangle"; osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(level, t0 + start + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
      osc.connect(gain).connect(this.ctx.destination);
      osc.start(t0 + start); osc.stop(t0 + start + length + 0.02);
    }
    this.log.push(entry);
    if (this.log.length > 500) this.log.splice(0, 100);
  }
}
