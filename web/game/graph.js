// The evaluation graph of an analysed game: the expected final margin for
// South after each step as an SVG line (no chart library), exact values as
// filled squares, estimates as dots. A click or touch picks the nearest
// step; with the keyboard it is a slider (arrows, Home, End).

import { t } from '../i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 600; // drawing units; the SVG scales to its box
const H = 150;
const PAD = 8;

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** "+3", "−2", "0", with "=" before a proved value. */
export function formatEval(v, exact) {
  const s = v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0';
  return exact ? `=${s}` : s;
}

/** What a screen reader hears for point `p` (a step's analysis) of the graph. */
export function stepText(p, total) {
  return t('an.graph_point', {
    seq: p.seq, total: total - 1, eval: formatEval(p.eval, false),
    exact: p.exact ? t('an.exact') : t('an.estimate'),
  });
}

/**
 * Draws the graph of `steps` (the steps analysed so far, of `total`) into
 * `box`, with step `current` marked; `onPick(seq)` is called when a point
 * is chosen. Returns the SVG.
 */
export function drawGraph(box, steps, total, current, onPick) {
  const old = box.querySelector('svg.eval-graph');
  const hadFocus = old && document.activeElement === old;
  const svg = el('svg', {
    id: 'an-graph-svg', viewBox: `0 0 ${W} ${H}`, class: 'eval-graph', role: 'slider', tabindex: '0',
    'aria-label': t('an.graph'), 'aria-valuemin': '0', 'aria-valuemax': String(Math.max(0, total - 1)),
    'aria-valuenow': String(current), 'aria-orientation': 'horizontal', preserveAspectRatio: 'none',
  });
  const cur = steps[current];
  svg.setAttribute('aria-valuetext', cur ? stepText(cur, total) : t('an.graph_pending', { seq: current }));
  const span = Math.max(4, ...steps.map((p) => Math.abs(p.eval)));
  const x = (k) => PAD + (k * (W - 2 * PAD)) / Math.max(1, total - 1);
  const y = (v) => H / 2 - (v * (H / 2 - PAD)) / span;
  el('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'south-ahead' }, svg);
  el('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'north-ahead' }, svg);
  el('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'zero' }, svg);
  if (steps.length) {
    const pts = steps.map((p) => `${x(p.seq).toFixed(1)},${y(p.eval).toFixed(1)}`).join(' ');
    el('polygon', { points: `${x(0)},${H / 2} ${pts} ${x(steps[steps.length - 1].seq).toFixed(1)},${H / 2}`, class: 'area' }, svg);
    el('polyline', { points: pts, class: 'curve' }, svg);
  }
  el('line', { x1: x(current), x2: x(current), y1: 0, y2: H, class: 'cursor' }, svg);
  for (const p of steps) {
    const cx = x(p.seq);
    const cy = y(p.eval);
    const mark = p.played ? p.played.mark : null;
    const cls = `pt${p.exact ? ' exact' : ''}${mark ? ` m-${mark}` : ''}${p.seq === current ? ' current' : ''}`;
    if (p.exact) el('rect', { x: cx - 4, y: cy - 4, width: 8, height: 8, class: cls, 'data-seq': p.seq }, svg);
    else el('circle', { cx, cy, r: 3.5, class: cls, 'data-seq': p.seq }, svg);
  }
  const pick = (clientX) => {
    const r = svg.getBoundingClientRect();
    const k = Math.round(((clientX - r.left) / r.width * W - PAD) / (W - 2 * PAD) * Math.max(1, total - 1));
    onPick(Math.max(0, Math.min(total - 1, k)));
  };
  svg.addEventListener('click', (e) => pick(e.clientX));
  svg.addEventListener('keydown', (e) => {
    const keys = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
    let k = null;
    if (e.key in keys) k = current + keys[e.key];
    else if (e.key === 'Home') k = 0;
    else if (e.key === 'End') k = total - 1;
    else if (e.key === 'PageUp') k = current + 10;
    else if (e.key === 'PageDown') k = current - 10;
    if (k === null) return;
    e.preventDefault();
    e.stopPropagation();
    onPick(Math.max(0, Math.min(total - 1, k)));
  });
  if (old) old.replaceWith(svg); else box.appendChild(svg);
  if (hadFocus) svg.focus();
  return svg;
}
