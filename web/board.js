// The SVG board: two rows of holes with counts and seeds, the players'
// captured piles, legal holes highlighted, keyboard focus, the last move's
// marks. On a narrow screen the board stands upright (rows as columns) so
// that every hole stays large enough to touch.

import { t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const CELL = 100; // one hole's cell, in SVG units
const R = 40; // hole radius
const SEED_R = 5.2;
const MAX_DRAWN = 24; // seeds drawn one by one; above this a hole shows a heap

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Seed positions in a unit disc (sunflower pattern), scaled per hole.
function seedSpots(count) {
  const spots = [];
  const golden = Math.PI * (3 - Math.sqrt(5));
  const shown = Math.min(count, MAX_DRAWN);
  const scale = (R - SEED_R - 4) / Math.sqrt(Math.max(shown, 1) + 0.5);
  for (let i = 0; i < shown; i++) {
    const r = scale * Math.sqrt(i + 0.5);
    const a = i * golden;
    spots.push([r * Math.cos(a), r * Math.sin(a)]);
  }
  return spots;
}

const SEED_COLORS = ['#f1d9a7', '#e8c27a', '#d9a85c', '#f5e6c4'];

// Upright boards: room beside each column of holes for its counts.
const SIDE = 70;

/**
 * A board for `n` holes per row, drawn across (or upright when `vertical`).
 * `onHole(index)` is called when a hole is clicked or activated with
 * Enter/Space.
 */
export class Board {
  constructor(container, n, onHole, vertical = false) {
    this.n = n;
    this.onHole = onHole;
    this.flipped = false;
    this.vertical = vertical;
    this.holes = [];
    const long = (n + 2) * CELL;
    const short = vertical ? 2 * CELL + 2 * SIDE : 2 * CELL + 100;
    const [w, h] = vertical ? [short, long] : [long, short];
    this.svg = el('svg', {
      viewBox: `0 0 ${w} ${h}`, class: `board${vertical ? ' vertical' : ''}`, role: 'group', 'aria-label': t('board.label'),
    });
    // Upright, a board is drawn at a scale that keeps its holes near 50 to 90 px.
    if (vertical) this.svg.style.maxWidth = `${Math.round(w * Math.max(0.5, Math.min(0.9, 650 / h)))}px`;
    el('rect', { x: 4, y: 6, width: w - 8, height: h - 12, rx: 70, class: 'wood' }, this.svg);
    this.piles = [0, 1].map(() => {
      const g = el('g', { class: 'pile' }, this.svg);
      const shape = el('rect', { width: CELL - 24, height: 2 * CELL - 30, rx: 36, class: 'pile-bg' }, g);
      if (vertical) shape.setAttribute('transform', `rotate(-90) translate(${-(CELL - 24)} 0)`);
      const seeds = el('g', {}, g);
      // Upright, the pile lies across: its shape and seeds are turned, its count is not.
      if (vertical) seeds.setAttribute('transform', shape.getAttribute('transform'));
      const text = el('text', { class: 'pile-count', 'text-anchor': 'middle' }, g);
      return { g, shape, seeds, text };
    });
    for (let i = 0; i < 2 * n; i++) {
      // The outer group is placed with a transform attribute; what it draws
      // sits in an inner group that CSS may move (the refused-hole shake),
      // since a CSS transform would replace the placing one.
      const g = el('g', { class: 'hole', tabindex: '-1', role: 'button', 'data-hole': i }, this.svg);
      const body = el('g', { class: 'hole-body' }, g);
      // The whole cell answers a touch, not only the pit.
      el('rect', {
        x: -CELL / 2, y: -CELL / 2, width: CELL, height: CELL, class: 'hit',
      }, body);
      // The last move's marks: a dashed ring where it started, a ring and a
      // cross where it captured (shapes, not colour alone).
      const ring = el('circle', { r: R + 6, class: 'ring', 'aria-hidden': 'true' }, body);
      const circle = el('circle', { r: R, class: 'pit' }, body);
      const seeds = el('g', { class: 'seeds' }, body);
      const cross = el('text', { class: 'cross', 'text-anchor': 'middle', x: R - 6, y: -R + 14, 'aria-hidden': 'true' }, body);
      cross.textContent = '×';
      // The drawn numbers are for the eye, beside the button (whose name
      // says them in words): the count, and the key that plays the hole,
      // shown on legal holes. A touch on them goes through to the hole.
      const text = el('g', { class: 'hole-text', 'aria-hidden': 'true' }, this.svg);
      const count = el('text', { class: 'count', 'text-anchor': 'middle' }, text);
      const badge = el('g', { class: 'badge' }, text);
      el('circle', { r: 14 }, badge);
      const label = el('text', { 'text-anchor': 'middle', y: 7 }, badge);
      g.addEventListener('click', () => this.onHole(i));
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          this.onHole(i);
        }
      });
      this.holes.push({ g, text, circle, ring, seeds, count, badge, label, shown: -1 });
    }
    container.replaceChildren(this.svg);
    this.layout();
  }

  /** Column (0..n+1) and row (0 top, 1 bottom) of hole `i` as drawn. */
  place(i) {
    const n = this.n;
    let col, row;
    if (i < n) {
      col = i + 1;
      row = 1;
    } else {
      col = n - (i - n);
      row = 0;
    }
    if (this.flipped) {
      col = n + 1 - col;
      row = 1 - row;
    }
    // Upright, the board is the one across turned a quarter clockwise: the
    // near row becomes the left column, its hole 1 at the top.
    if (this.vertical) return { x: SIDE + (1 - row) * CELL + CELL / 2, y: col * CELL + CELL / 2, row, order: col };
    return { x: col * CELL + CELL / 2, y: 50 + row * CELL + CELL / 2, row, order: col };
  }

  layout() {
    const n = this.n;
    for (let i = 0; i < 2 * n; i++) {
      const { x, y, row } = this.place(i);
      const hole = this.holes[i];
      hole.g.setAttribute('transform', `translate(${x} ${y})`);
      hole.text.setAttribute('transform', `translate(${x} ${y})`);
      if (this.vertical) {
        // Counts outside the columns: left of the left one, right of the right one.
        hole.count.setAttribute('x', row === 1 ? -R - 10 : R + 10);
        hole.count.setAttribute('y', 10);
        hole.count.setAttribute('text-anchor', row === 1 ? 'end' : 'start');
        hole.badge.setAttribute('transform', `translate(${row === 1 ? R - 4 : -R + 4} ${-R + 4})`);
      } else {
        hole.count.setAttribute('y', row === 0 ? -R - 10 : R + 30);
        hole.badge.setAttribute('transform', `translate(${-R + 4} ${row === 0 ? R - 4 : -R + 4})`);
      }
      hole.row = row;
    }
    if (this.vertical) {
      // The near player's pile at the bottom, the far player's at the top.
      const [south, north] = this.piles;
      const bottom = (this.n + 1) * CELL + 12;
      const top = 12;
      const x = SIDE + 15;
      south.g.setAttribute('transform', `translate(${x} ${this.flipped ? top : bottom})`);
      north.g.setAttribute('transform', `translate(${x} ${this.flipped ? bottom : top})`);
      for (const p of this.piles) {
        p.text.setAttribute('x', 2 * CELL - 52);
        p.text.setAttribute('y', (CELL - 24) / 2 + 10);
      }
      for (const h of this.holes) h.shown = -1;
      return;
    }
    // Each player's captured pile on their right: South's at the right end as
    // South sees it; the bottom player's on the right.
    const bottomRight = (this.n + 1) * CELL + 12;
    const topLeft = 12;
    const [south, north] = this.piles;
    const sx = this.flipped ? topLeft : bottomRight;
    const nx = this.flipped ? bottomRight : topLeft;
    south.g.setAttribute('transform', `translate(${sx} 65)`);
    north.g.setAttribute('transform', `translate(${nx} 65)`);
    for (const p of this.piles) {
      p.text.setAttribute('x', (CELL - 24) / 2);
      p.text.setAttribute('y', 2 * CELL - 42);
    }
    for (const h of this.holes) h.shown = -1;
  }

  setFlipped(f) {
    if (f !== this.flipped) {
      this.flipped = f;
      this.layout();
    }
  }

  drawSeeds(group, count, spread) {
    group.replaceChildren();
    const spots = seedSpots(count);
    spots.forEach(([x, y], k) => {
      el('circle', {
        cx: (x * spread).toFixed(1), cy: (y * spread).toFixed(1), r: SEED_R,
        fill: SEED_COLORS[k % SEED_COLORS.length], class: 'seed',
      }, group);
    });
  }

  /**
   * Draws a state: `board` counts, `closed` indices, `captured` [s, n],
   * `legal` set of indices, `labels` map index → move number shown in the hole when empty.
   */
  render({
    board, closed = [], captured = [0, 0], legal = new Set(), focusable = false, labels = true, last = null,
  }) {
    const closedSet = new Set(closed);
    for (let i = 0; i < board.length; i++) {
      const h = this.holes[i];
      const c = board[i];
      if (h.shown !== c) {
        this.drawSeeds(h.seeds, c, 1);
        h.shown = c;
      }
      h.count.textContent = closedSet.has(i) ? '×' : String(c);
      const num = (i % this.n) + 1;
      h.label.textContent = labels ? (num === 10 ? '0' : num === 11 ? '-' : num === 12 ? '=' : String(num)) : '';
      h.g.classList.toggle('closed', closedSet.has(i));
      h.g.classList.toggle('legal', legal.has(i));
      h.text.classList.toggle('legal', legal.has(i));
      const canFocus = focusable && legal.has(i);
      h.g.setAttribute('tabindex', canFocus ? '0' : '-1');
      // A hole that cannot be played now keeps no focus (nor its ring).
      if (!canFocus && document.activeElement === h.g) h.g.blur();
      const from = !!last && last.from.includes(i);
      const took = !!last && last.captured.includes(i);
      h.g.classList.toggle('last-from', from);
      h.g.classList.toggle('last-capture', took);
      let name = t(closedSet.has(i) ? 'board.closed' : 'board.hole', {
        side: t(i < this.n ? 'side.south' : 'side.north'), num, count: c,
      });
      if (from) name += `, ${t('board.last_from')}`;
      if (took) name += `, ${t('board.last_capture')}`;
      h.g.setAttribute('aria-label', name);
      h.g.setAttribute('aria-disabled', legal.has(i) ? 'false' : 'true');
    }
    this.piles.forEach((p, k) => {
      p.text.textContent = String(captured[k]);
      const shown = Math.min(captured[k], 40);
      if (p.shownCount !== shown) {
        p.seeds.replaceChildren();
        for (let s = 0; s < shown; s++) {
          el('circle', {
            cx: 18 + (s % 4) * 14, cy: 2 * CELL - 86 - Math.floor(s / 4) * 12, r: SEED_R,
            fill: SEED_COLORS[s % SEED_COLORS.length], class: 'seed',
          }, p.seeds);
        }
        p.shownCount = shown;
      }
    });
  }

  /** Marks hole `i` with a class for a moment (sowing hand, capture). */
  flash(i, cls, ms = 300) {
    const g = this.holes[i]?.g;
    if (!g) return;
    g.classList.add(cls);
    setTimeout(() => g.classList.remove(cls), ms);
  }

  mark(i, cls, on) {
    this.holes[i]?.g.classList.toggle(cls, on);
  }

  clearMarks(cls) {
    for (const h of this.holes) h.g.classList.remove(cls);
  }

  /** Where hole `i` comes in the viewer's order of holes (their left to right, or top to bottom). */
  order(i) {
    return this.place(i).order;
  }

  focusHole(i) {
    this.holes[i]?.g.focus();
  }
}
