// The table's sounds, made with the Web Audio API (no audio files): a cue for your turn, a card
// played, a trick won and the end of a deal. Silent while the sound setting is off, and silent until
// the person has touched the page: browsers let a page make sound only after a gesture, so the audio
// context is made in the first pointer or key event, never before.
// window.__ultiSound counts the cues actually scheduled (by name) and the audio contexts made: the
// browser tests read it, as the sound itself cannot be heard there.
import { getPref, onPrefChange } from "./prefs.js";

/** Each cue: its notes as [frequency Hz, start s, length s], the waveform and the loudness. */
const CUES = {
  turn: { wave: "sine", gain: 0.16, notes: [[660, 0, 0.12], [880, 0.13, 0.18]] },
  card: { wave: "triangle", gain: 0.12, notes: [[240, 0, 0.05]] },
  trick: { wave: "sine", gain: 0.12, notes: [[520, 0, 0.08], [390, 0.08, 0.12]] },
  deal: { wave: "sine", gain: 0.14, notes: [[523, 0, 0.14], [659, 0.14, 0.14], [784, 0.28, 0.3]] },
};

const counts = { contexts: 0, played: { turn: 0, card: 0, trick: 0, deal: 0 }, total: 0 };
window.__ultiSound = counts;

let ctx = null;
let touched = false;

function unlock() {
  touched = true;
  if (getPref("sound") !== "on") return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  if (!ctx) {
    ctx = new Ctx();
    counts.contexts += 1;
  }
  if (ctx.state === "suspended") ctx.resume();
}

for (const type of ["pointerdown", "keydown", "touchstart"]) {
  document.addEventListener(type, unlock, { capture: true, passive: true });
}
onPrefChange((name, value) => {
  if (name !== "sound") return;
  // turned off: stop what is sounding and let the context go; turned on by a click: ready at once
  if (value === "off" && ctx) {
    ctx.close();
    ctx = null;
  } else if (value === "on" && touched) {
    unlock();
  }
});

/** Play cue `name` (turn, card, trick, deal), `delay` seconds from now, if sound is on and the page has been touched. */
export function playCue(name, delay = 0) {
  const cue = CUES[name];
  if (!cue || getPref("sound") !== "on" || !touched) return false;
  if (!ctx) unlock();
  if (!ctx) return false;
  const start = ctx.currentTime + 0.01 + delay;
  for (const [freq, at, length] of cue.notes) {
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = cue.wave;
    osc.frequency.value = freq;
    // a short attack and an exponential fade: a click-free note
    amp.gain.setValueAtTime(0.0001, start + at);
    amp.gain.exponentialRampToValueAtTime(cue.gain, start + at + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    osc.connect(amp).connect(ctx.destination);
    osc.start(start + at);
    osc.stop(start + at + length + 0.02);
  }
  counts.played[name] += 1;
  counts.total += 1;
  return true;
}
