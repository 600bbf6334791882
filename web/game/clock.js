// The game's clocks, as the server keeps them: each view carries the time
// left on both clocks at the server's time; the page counts the running
// one down until the next view. The server alone decides a flag fall.

import { t } from '../i18n.js';
import { isYou, playerName, say } from './state.js';
import { TICK_MS, playSound } from './sounds.js';

/** Below this much time a clock shows the low-time warning (and says it once). */
export const LOW_MS = 20000;

let ticker = null;

/** The time left `ms` as the clock shows it: `4:05`, `1:02:03`, `2 d 3 h`, `9.4`; none left is `0:00`. */
export function formatClock(ms) {
  if (ms <= 0) return '0:00';
  const s = ms / 1000;
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  const two = (n) => String(Math.floor(n)).padStart(2, '0');
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two((s % 3600) / 60)}:${two(s % 60)}`;
  if (s >= 10) return `${Math.floor(s / 60)}:${two(s % 60)}`;
  return s.toFixed(1);
}

/** The time left on `side`'s clock now, counting from when the view came. */
function left(S, side) {
  // The server flags a side whose time ran out: its clock shows none left,
  // whatever time it had at its last stored step.
  if (S.view && S.view.flagged === side) return 0;
  const c = S.clockBase.clock;
  const k = side === 'south' ? 0 : 1;
  const ms = c.remaining_ms[k];
  // While the server cannot be reached the page does not know the clocks:
  // they stay as they were when the connection dropped.
  const now = S.clockPausedAt ?? Date.now();
  return c.running === side ? ms - (now - S.clockBase.at) : ms;
}

function paint(G) {
  const { S, $ } = G;
  const v = S.view;
  if (!v || !v.clock || !S.clockBase) return;
  const el = $('clock');
  if (!el) return;
  el.replaceChildren();
  for (const side of ['south', 'north']) {
    const span = document.createElement('span');
    const ms = left(S, side);
    const time = formatClock(ms);
    // Low on time: a sign and a word beside the figures, not colour alone.
    const low = ms < LOW_MS && !v.flagged;
    span.className = `clock-side${v.clock.running === side ? ' running' : ''}${low ? ' low' : ''}${S.clockPausedAt ? ' paused' : ''}`;
    span.dataset.side = side;
    const name = document.createElement('span');
    name.className = 'clock-name';
    name.textContent = playerName(S, side);
    const figures = document.createElement('span');
    figures.className = 'clock-time';
    figures.textContent = low ? `⚠ ${time}` : time;
    span.append(name, ' ', figures);
    span.setAttribute('aria-label', t(low ? 'clock.label_low' : 'clock.label', { name: playerName(S, side), time }));
    el.append(span);
    warnLow(G, side, low && v.clock.running === side);
    if (v.clock.running === side && !S.clockPausedAt && !v.flagged) tick(S, side, ms);
  }
}

/** A tick each second of the last {@link TICK_MS} of the reader's own running clock. */
function tick(S, side, ms) {
  if (!isYou(S, side) || ms <= 0 || ms >= TICK_MS) return;
  const second = Math.ceil(ms / 1000);
  if (S.tickSecond === second) return;
  S.tickSecond = second;
  playSound('clock');
}

/**
 * Says once, in the page's alert region, that the running clock of `side`
 * went below {@link LOW_MS}: to its player ("your clock") and to the others.
 */
function warnLow(G, side, low) {
  const { S, $ } = G;
  S.lowWarned = S.lowWarned || {};
  if (!low) { delete S.lowWarned[side]; return; }
  if (S.lowWarned[side]) return;
  S.lowWarned[side] = true;
  const box = $('clock-alert');
  if (box) box.textContent = say(S, 'clock.low', side);
}

/** Shows the clocks of the game shown, if it has them, and keeps the running one ticking. */
export function drawClock(G) {
  const { S, $ } = G;
  const v = S.view;
  const el = $('clock');
  el.hidden = !v.clock;
  if (!v.clock) { stopClock(S); return; }
  if (!S.clockBase || S.clockBase.clock !== v.clock) S.clockBase = { clock: v.clock, at: Date.now() };
  paint(G);
  if (!ticker) ticker = setInterval(() => paint(G), 200);
}

/**
 * Pauses the clocks while the server cannot be reached (`up` false) and
 * lets them run again when it can: the next view brings the server's times.
 */
export function clockConnection(G, up) {
  const { S } = G;
  if (up) S.clockPausedAt = null;
  else if (S.clockPausedAt == null) S.clockPausedAt = Date.now();
  const el = G.$('clock');
  if (el) el.dataset.paused = up ? 'false' : 'true';
  paint(G);
}

/** Stops the ticking (the page is left). */
export function stopClock(S) {
  clearInterval(ticker);
  ticker = null;
  S.clockBase = null;
}
