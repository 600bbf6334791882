// The game's clocks, as the server keeps them: each view carries the time
// left on both clocks at the server's time; the page counts the running
// one down until the next view. The server alone decides a flag fall.

import { t } from '../i18n.js';
import { isYou, playerName, say, isOver } from './state.js';
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
  const { S } = G;
  const v = S.view;
  if (!v || !v.clock || !S.clockBase) return;
  // Each clock sits in its player's bar, beside the name and the seeds captured.
  for (const span of document.querySelectorAll('.player .clock-side[data-side]')) {
    const side = span.dataset.side;
    const ms = left(S, side);
    const time = formatClock(ms);
    // Low on time: a sign and a word beside the figures, not colour alone
    // (not once the flag has fallen: the game is over).
    const low = ms < LOW_MS && !v.flagged;
    span.className = `clock-side${v.clock.running === side ? ' running' : ''}${low ? ' low' : ''}${S.clockPausedAt ? ' paused' : ''}`;
    span.dataset.paused = S.clockPausedAt ? 'true' : 'false';
    // Made once per bar, then only their text changes (the clock ticks five times a second).
    if (!span.querySelector('.clock-time')) {
      const name = document.createElement('span');
      name.className = 'clock-name sr-only';
      const figures = document.createElement('span');
      figures.className = 'clock-time';
      span.replaceChildren(name, ' ', figures);
    }
    span.querySelector('.clock-name').textContent = playerName(S, side);
    span.querySelector('.clock-time').textContent = low ? `⚠ ${time}` : time;
    span.setAttribute('aria-label', t(low ? 'clock.label_low' : 'clock.label', { name: playerName(S, side), time }));
    if (v.clock.running === side && !S.clockPausedAt && !v.flagged) tick(S, side, ms);
  }
  for (const side of ['south', 'north']) warnLow(G, side, left(S, side) < LOW_MS && !v.flagged && !isOver(v) && v.clock.running === side);
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
  const box = $('clock-alert');
  if (!low) {
    // The warning goes once the clock is no longer low and running (its flag fell, the game ended).
    if (S.lowWarned[side] && box) box.textContent = '';
    delete S.lowWarned[side];
    return;
  }
  if (S.lowWarned[side]) return;
  S.lowWarned[side] = true;
  if (box) box.textContent = say(S, 'clock.low', side);
}

/** Shows the clocks of the game shown, if it has them, and keeps the running one ticking. */
export function drawClock(G) {
  const { S } = G;
  const v = S.view;
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
  paint(G);
}

/** Stops the ticking (the page is left). */
export function stopClock(S) {
  clearInterval(ticker);
  ticker = null;
  S.clockBase = null;
}
