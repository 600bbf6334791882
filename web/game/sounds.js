// The game's sounds, made with WebAudio (no sound files): a soft knock for
// each seed sown (one for a move shown without its sowing), a chime for a
// capture, and a tick each second of the reader's own clock's last ten.
// On unless the player turns them off (the "Sounds" switch of the game
// page, kept in localStorage); the "your move" beep of alerts.js is its own
// opt-in switch.

const PREF = 'hoyito.sounds';
/** The reader's own running clock ticks each second below this. */
export const TICK_MS = 10000;

let audio = null;

/** Whether the game's sounds are on (they are unless turned off). */
export const soundsOn = () => localStorage.getItem(PREF) !== '0';

/** Turns the game's sounds on or off. */
export function setSounds(on) {
  localStorage.setItem(PREF, on ? '1' : '0');
}

/** The page's audio context, made on first use (none on a device without audio). */
export function audioContext() {
  try {
    if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
    // A context made before the reader touched the page starts suspended.
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    return audio;
  } catch {
    return null;
  }
}

/** A tone of `freq` Hz for `dur` s at `gain`, `delay` s from now, fading out. */
export function tone(freq, dur, gain, { type = 'sine', delay = 0, to = null } = {}) {
  const a = audioContext();
  if (!a) return;
  try {
    const at = a.currentTime + delay;
    const osc = a.createOscillator();
    const g = a.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    if (to) {
      osc.frequency.setValueAtTime(freq, at);
      osc.frequency.exponentialRampToValueAtTime(to, at + dur);
    }
    g.gain.setValueAtTime(gain, at);
    g.gain.exponentialRampToValueAtTime(0.001, at + dur);
    osc.connect(g).connect(a.destination);
    osc.start(at);
    osc.stop(at + dur);
  } catch { /* no audio on this device */ }
}

const SOUNDS = {
  // A seed dropped in a hole: a short, low knock, a little different each time.
  sow: () => tone(300 + Math.random() * 60, 0.07, 0.09, { type: 'triangle', to: 180 }),
  // Seeds taken: two rising notes.
  capture: () => { tone(660, 0.16, 0.12); tone(990, 0.22, 0.1, { delay: 0.09 }); },
  // A second of the last ten on the reader's clock.
  clock: () => tone(1200, 0.05, 0.08, { type: 'square' }),
};

/** Plays the sound `kind` (`sow`, `capture`, `clock`) unless sounds are off. */
export function playSound(kind) {
  if (!soundsOn() || !SOUNDS[kind]) return;
  SOUNDS[kind]();
}
