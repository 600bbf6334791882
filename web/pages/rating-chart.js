// A player's rating history in one pool as an inline SVG chart, drawn
// here with DOM calls (no library, nothing fetched: it works offline): the
// rating after each rated game as a point on a line that starts from the
// rating before the first, a provisional rating as a hollow point, the
// ratings on a few round levels at the left and the first and last games'
// dates below. It is drawn at the width of its box, in the page's own
// pixels, so its words stay readable on a phone; the page draws it again
// when that width changes.

import { t, getLang } from '../i18n.js';
import { provisional, ratingText } from '../ratings.js';

const NS = 'http://www.w3.org/2000/svg';

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** A round step between the levels of the rating axis: at most about `most` levels over `span`. */
function levelStep(span, most) {
  for (const s of [10, 20, 25, 50, 100, 200, 250, 500, 1000]) if (span / s <= most) return s;
  return 1000;
}

/** A date as the reader's language writes it, short. */
const day = (ms) => new Date(ms).toLocaleDateString(getLang(), { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * Draws the chart of `points` (a history's points, oldest first: `rating`,
 * `deviation`, `before`, `ended_ms`) into `box`, replacing what it held,
 * with `label` (the pool's name) in what a screen reader says of it.
 * Returns the SVG, or null when there is no point.
 */
export function drawRatingChart(box, points, label) {
  box.replaceChildren();
  if (!points.length) return null;
  const width = Math.max(240, Math.floor(box.clientWidth || 320));
  const height = width < 500 ? 190 : 230;
  const pad = { left: 46, right: 14, top: 12, bottom: 30 };
  // The line starts from the rating before the first game shown.
  const start = points[0].before ?? points[0].rating;
  const values = [start, ...points.map((p) => p.rating)];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 40) { const mid = (hi + lo) / 2; lo = mid - 20; hi = mid + 20; }
  const step = levelStep(hi - lo, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const n = points.length;
  const x = (k) => pad.left + (k * (width - pad.left - pad.right)) / n;
  const y = (r) => pad.top + ((hi - r) * (height - pad.top - pad.bottom)) / (hi - lo);
  const last = points[n - 1];
  const svg = el('svg', {
    class: 'rating-chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': t('chart.label', {
      pool: label, n, first: ratingText(start, points[0].deviation_before ?? 350), last: ratingText(last.rating, last.deviation),
    }),
  });
  // The levels of the rating axis.
  for (let r = lo; r <= hi; r += step) {
    el('line', { class: 'level', x1: pad.left, x2: width - pad.right, y1: y(r), y2: y(r) }, svg);
    el('text', { class: 'axis', x: pad.left - 6, y: y(r) + 4, 'text-anchor': 'end' }, svg).textContent = String(r);
  }
  // The first and last games' dates, at the ends of the axis.
  const foot = height - 8;
  const [from, to] = [day(points[0].ended_ms), day(last.ended_ms)];
  el('text', { class: 'axis', x: pad.left, y: foot, 'text-anchor': 'start' }, svg).textContent = from;
  if (to !== from) el('text', { class: 'axis', x: width - pad.right, y: foot, 'text-anchor': 'end' }, svg).textContent = to;
  const line = [`${x(0).toFixed(1)},${y(start).toFixed(1)}`, ...points.map((p, i) => `${x(i + 1).toFixed(1)},${y(p.rating).toFixed(1)}`)];
  el('polyline', { class: 'curve', points: line.join(' ') }, svg);
  // One point a game; smaller where there are many.
  const r = n > 120 ? 2 : n > 40 ? 3 : 4.5;
  points.forEach((p, i) => {
    const dot = el('circle', {
      class: `pt${provisional(p.deviation) ? ' provisional' : ''}`, cx: x(i + 1).toFixed(1), cy: y(p.rating).toFixed(1), r, 'data-game': p.game,
    }, svg);
    el('title', {}, dot).textContent = t('chart.point', { n: i + 1, date: day(p.ended_ms), rating: ratingText(p.rating, p.deviation) });
  });
  box.appendChild(svg);
  return svg;
}
