// Where a move will go before it is played: on hover with a mouse (or the
// first tap on a touch screen, the second tap plays; or the keyboard's
// focus on a hole), the hole's direction and the last hole of its first
// lap are marked on the board and said in words. The sowing is the rules'
// own: the WebAssembly module's Game plays the move on a copy of the
// position (Game.fromSetup, then play, whose trace lists the sowing); no
// JavaScript sows.

import { t } from '../i18n.js';
import { Game } from '../wasm/hoyito_wasm.js';
import { ready } from '../local/backend.js';
import { legalHoles } from './state.js';

const cache = new Map(); // `epoch:seq:token` -> {end, dir}
let touched = false; // the last pointer down was a touch or a pen
let armed = null; // `epoch:seq:hole` of the hole a first tap previewed: a second tap there plays

/** The legal move that sows hole `i` alone in the chosen direction, if any (not a two-hole opening). */
function moveAt(S, i) {
  const v = S.view;
  if (v.opening_pair || !legalHoles(S).has(i)) return null;
  return v.legal_moves.find((m) => m.holes.length === 1 && m.holes[0] === i && (!v.direction_choice || m.dir === S.dir)) || null;
}

/** The last hole of the first lap of move `m`, sown by the rules' code on a copy of the position. */
async function firstLapEnd(S, m) {
  const v = S.view;
  const key = `${v.epoch}:${v.seq}:${m.holes[0]}${m.dir}`;
  if (cache.has(key)) return cache.get(key);
  await ready();
  const n = v.rules.holes;
  const token = `${(m.holes[0] % n) + 1}${v.rules.direction === 'fixed' ? '' : m.dir}`;
  const game = Game.fromSetup(v.rules, { board: v.state.board, closed: v.state.closed, to_move: v.state.to_move });
  try {
    const events = game.play(token).trace.events;
    let laps = 0;
    let end = null;
    for (const e of events) {
      if (e[0] === 'l') { laps += 1; if (laps > 1) break; }
      if (e[0] === 's') end = e[1];
    }
    const out = { end, dir: m.dir };
    cache.set(key, out);
    return out;
  } finally {
    game.free();
  }
}

/** Takes the preview off the board. */
export function clearPreview(G) {
  const { S, $ } = G;
  if (S.board) { S.board.clearMarks('preview-from'); S.board.clearMarks('preview-end'); }
  const el = $('preview');
  if (el) el.textContent = '';
}

/** Shows where the move from hole `i` goes, if it is a move the player may make now. */
async function show(G, i) {
  const { S, $ } = G;
  const m = moveAt(S, i);
  if (!m) { clearPreview(G); return; }
  const at = `${S.view.epoch}:${S.view.seq}`;
  let p;
  try { p = await firstLapEnd(S, m); } catch { return; }
  // The position moved on meanwhile.
  if (!S.view || `${S.view.epoch}:${S.view.seq}` !== at || p.end === null) return;
  clearPreview(G);
  S.board.mark(i, 'preview-from', true);
  S.board.mark(p.end, 'preview-end', true);
  const n = S.view.rules.holes;
  $('preview').textContent = t('preview.move', {
    num: (i % n) + 1,
    dir: `${p.dir === 'R' ? '↻' : '↺'} ${t(p.dir === 'R' ? 'dir.cw' : 'dir.ccw')}`,
    side: t(p.end < n ? 'side.south' : 'side.north'),
    end: (p.end % n) + 1,
  });
}

/**
 * A tap or click on hole `i`, by one rule: with a mouse (or the keyboard's
 * Enter) it plays; on a touch screen the first tap on a hole only shows
 * the preview (true: the tap is taken) and a second tap on the same hole
 * plays (false). Whether the first tap was taken is decided here, at
 * once, never by how soon the preview of a focused hole was ready.
 */
export function previewFirst(G, i) {
  const { S } = G;
  if (!touched || !moveAt(S, i)) { armed = null; return false; }
  const key = `${S.view.epoch}:${S.view.seq}:${i}`;
  if (armed === key) { armed = null; return false; }
  armed = key;
  show(G, i);
  return true;
}

/** Wires the board's hover, focus and touch to the preview; returns a function that unwires them. */
export function bindPreview(G) {
  const wrap = G.$('board-wrap');
  const holeOf = (e) => {
    const g = e.target.closest?.('.hole[data-hole]');
    return g ? Number(g.dataset.hole) : null;
  };
  const onDown = (e) => { touched = e.pointerType !== 'mouse'; };
  const onKey = () => { touched = false; };
  const onOver = (e) => {
    if (e.pointerType !== 'mouse') return;
    const i = holeOf(e);
    if (i !== null) show(G, i);
  };
  const onOut = (e) => {
    if (e.pointerType === 'mouse' && holeOf(e) !== null && !wrap.contains(e.relatedTarget?.closest?.('.hole') || null)) clearPreview(G);
  };
  const onFocus = (e) => { const i = holeOf(e); if (i !== null) show(G, i); };
  wrap.addEventListener('pointerdown', onDown, true);
  wrap.addEventListener('keydown', onKey, true);
  wrap.addEventListener('pointerover', onOver);
  wrap.addEventListener('pointerout', onOut);
  wrap.addEventListener('focusin', onFocus);
  return () => {
    wrap.removeEventListener('pointerdown', onDown, true);
    wrap.removeEventListener('keydown', onKey, true);
    wrap.removeEventListener('pointerover', onOver);
    wrap.removeEventListener('pointerout', onOut);
    wrap.removeEventListener('focusin', onFocus);
  };
}
