// The SVG board: two rows of holes with counts and seeds, the players'
// captured piles, legal holes highlighted, keyboard focus.

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

/**
 * A board for `n` holes per row. `onHole(index)` is called when a hole is
 * clicked or activated with Enter/Space.
 */
export class Board {
  constructor(container, n, onHole) {
    this.n = n;
    this.onHole = onHole;
    this.flipped = false;
    this.holes = [];
    const w = (n + 2) * CELL;
    const h = 2 * CELL + 100;
    this.svg = el('svg', {
      viewBox: `0 0 ${w} ${h}`, class: 'board', role: 'group', 'aria-label': 'Hoyito board',
    });
    el('rect', { x: 4, y: 6, width: w - 8, height: h - 12, rx: 70, class: 'wood' }, this.svg);
    this.piles = [0, 1].map(() => {
      const g = el('g', { class: 'pile' }, this.svg);
      const shape = el('rect', { width: CELL - 24, height: 2 * CELL - 30, rx: 36, class: 'pile-bg' }, g);
      const seeds = el('g', {}, g);
      const text = el('text', { class: 'pile-count', 'text-anchor': 'middle' }, g);
      return { g, shape, seeds, text };
    });
    for (let i = 0; i < 2 * n; i++) {
      // The outer group is placed with a transform attribute; what it draws
      // sits in an inner group that CSS may move (the refused-hole shake),
      // since a CSS transform would replace the placing one.
      const g = el('g', { class: 'hole', tabindex: '-1', role: 'button', 'data-hole': i }, this.svg);
      const body = el('g', { class: 'hole-body' }, g);
      const circle = el('circle', { r: R, class: 'pit' }, body);
      const seeds = el('g', { class: 'seeds' }, body);
      const count = el('text', { class: 'count', 'text-anchor': 'middle' }, body);
      // The key that plays this hole, shown on legal holes.
      const badge = el('g', { class: 'badge', 'aria-hidden': 'true' }, body);
      el('circle', { r: 14 }, badge);
      const label = el('text', { 'text-anchor': 'middle', y: 7 }, badge);
      g.addEventListener('click', () => this.onHole(i));
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          this.onHole(i);
        }
      });
      this.holes.push({ g, circle, seeds, count, badge, label, shown: -1 });
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
    return { x: col * CELL + CELL / 2, y: 50 + row * CELL + CELL / 2, row };
  }

  layout() {
    const n = this.n;
    for (let i = 0; i < 2 * n; i++) {
      const { x, y, row } = this.place(i);
      const hole = this.holes[i];
      hole.g.setAttribute('transform', `translate(${x} ${y})`);
      hole.count.setAttribute('y', row === 0 ? -R - 10 : R + 30);
      hole.badge.setAttribute('transform', `translate(${-R + 4} ${row === 0 ? R - 4 : -R + 4})`);
      hole.row = row;
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
  render({ board, closed = [], captured = [0, 0], legal = new Set(), focusable = false, labels = true }) {
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
      const canFocus = focusable && legal.has(i);
      h.g.setAttribute('tabindex', canFocus ? '0' : '-1');
      // A hole that cannot be played now keeps no focus (nor its ring).
      if (!canFocus && document.activeElement === h.g) h.g.blur();
      const owner = i < this.n ? 'South' : 'North';
      h.g.setAttribute('aria-label', `${owner} ${num}: ${c}`);
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

  focusHole(i) {
    this.holes[i]?.g.focus();
  }
}
