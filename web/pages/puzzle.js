// The puzzle page (/puzzles, /puzzles/<id>): a position from the server's
// puzzle set (GET /api/puzzles/…, each proved by the endgame tables) where
// one move keeps the result. The player plays the solution on the board;
// the opponent's forced replies are played for them; a wrong move is not
// played but shown with its exact value beside the solution's (from
// /api/tablebase); hints give the theme, then the hole; the solution can
// be shown; Next puzzle follows the set, filtered by variant and board.
// The solver's Glicko-2 rating is kept on the device; each puzzle's first
// attempt (solved, or a wrong move, a hint or the solution shown) is sent to
// POST /api/puzzles/<id>/attempt, which answers the new rating; offline, the
// attempt is not rated.
// /puzzles/daily is the puzzle of the UTC day (GET /api/puzzles/daily, the
// same for everyone), with the filters.
// The rules are the WebAssembly module's (`Game.fromNotation`, `play`).

import { t } from '../i18n.js';
import { Board } from '../board.js';
import { Game } from '../wasm/hoyito_wasm.js';
import { ready } from '../local/backend.js';
import { html, setHtml } from '../html.js';
import { sideName, errorText } from '../ui.js';
import { api } from '../api.js';
import { navigate } from '../nav.js';

export const PUZZLE_PATH = '/puzzles';
/** The id in `/puzzles/<id>` that shows the puzzle of the day. */
export const DAILY = 'daily';
/** Loads the WebAssembly rules the page needs (before `puzzlePage`). */
export const loaded = ready;
// Where the set was left, and the filters, on this device.
const LAST_KEY = 'hoyito.puzzle.last';
const FILTER_KEY = 'hoyito.puzzle.filter';
// The solver's Glicko-2 rating on this device (a new solver's first).
const RATING_KEY = 'hoyito.puzzle.rating';
const NEW_RATING = { rating: 1500, deviation: 350, volatility: 0.06 };
// The least cell of a hole lying across (CSS px), as on the analysis board.
const MIN_CELL = 40;
// A pause before the opponent's forced reply, so that the player sees it come.
const REPLY_MS = 500;

/** The side to move in a puzzle's position: the solver. */
const solver = (p) => (p.position.split(' ')[1] === 'n' ? 'north' : 'south');
const signed = (v) => (v > 0 ? `+${v}` : String(v));

function read(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}
function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: not kept */ }
}

function layout() {
  return html`<section class="puzzle">
    <h1>${t('puzzle.title')}</h1>
    <p class="muted pz-intro">${t('puzzle.intro')}</p>
    <form id="pz-filter" class="controls pz-filter">
      <label>${t('new.variant')} <select id="pz-variant"><option value="">${t('puzzle.any')}</option>${['I', 'II', 'III'].map((v) => html`<option value="${v}">Hoyito ${v}</option>`)}</select></label>
      <label>${t('new.holes')} <select id="pz-holes"><option value="">${t('puzzle.any')}</option>${[6, 4].map((n) => html`<option value="${n}">2×${n}</option>`)}</select></label>
      <a id="pz-daily" href="${PUZZLE_PATH}/${DAILY}" data-nav>${t('puzzle.daily')}</a>
    </form>
    <p id="pz-info" class="muted"></p>
    <p id="pz-rating" class="muted" aria-live="polite"></p>
    <p id="pz-task" class="pz-task" aria-live="polite"></p>
    <div id="pz-board" class="board-wrap"></div>
    <p id="pz-status" class="pz-status" role="status" aria-live="polite"></p>
    <div class="controls">
      <button type="button" id="pz-hint">${t('puzzle.hint')}</button>
      <button type="button" id="pz-show">${t('puzzle.show')}</button>
      <button type="button" id="pz-next">${t('puzzle.next')}</button>
    </div>
  </section>`;
}

/** Shows the puzzle `id` (or the next one of the set) in `app`; returns the page's teardown. */
export function puzzlePage(app, id) {
  document.title = `Hoyito — ${t('puzzle.title')}`;
  setHtml(app, layout());
  const $ = (x) => document.getElementById(x);
  const section = app.querySelector('.puzzle');
  const st = {
    puzzle: null, game: null, board: null, step: 0, hints: 0, busy: false, closed: false, timer: null, last: null, rated: false,
  };
  const filter = read(FILTER_KEY, { variant: '', holes: '' });
  $('pz-variant').value = filter.variant || '';
  $('pz-holes').value = String(filter.holes || '');

  const setState = (s) => { section.dataset.state = s; };
  const status = (text) => { $('pz-status').textContent = text; };

  function setPath(which, after) {
    const q = new URLSearchParams();
    if (filter.variant) q.set('variant', filter.variant);
    if (filter.holes) q.set('holes', String(filter.holes));
    if (after) q.set('after', after);
    const s = q.toString();
    return `/api/puzzles/${which}${s ? `?${s}` : ''}`;
  }
  const nextPath = (after) => setPath('next', after);

  async function load() {
    setState('loading');
    status(t('puzzle.loading'));
    try {
      let p;
      if (id === DAILY) p = await api('GET', setPath(DAILY));
      else if (id) p = await api('GET', `/api/puzzles/${encodeURIComponent(id)}`);
      else p = await api('GET', nextPath(read(LAST_KEY, null)));
      if (st.closed) return;
      if (!id) history.replaceState(null, '', `${PUZZLE_PATH}/${p.id}`);
      if (id === DAILY) section.dataset.daily = p.date;
      start(p);
    } catch (e) {
      if (st.closed) return;
      setState('failed');
      status(e.code === 'offline' ? t('puzzle.offline') : errorText(e));
    }
  }

  function start(p) {
    st.puzzle = p;
    st.step = 0;
    st.hints = 0;
    st.last = null;
    st.rated = false;
    delete section.dataset.change;
    showRating();
    write(LAST_KEY, p.id);
    if (st.game) st.game.free();
    st.game = Game.fromNotation({ variant: p.variant, holes: p.holes }, p.position);
    const info = t('puzzle.info', { id: p.id, variant: p.variant, holes: p.holes, rating: p.rating });
    $('pz-info').textContent = p.date ? `${t('puzzle.daily_of', { date: p.date })} · ${info}` : info;
    $('pz-task').textContent = t(p.result === 'draw' ? 'puzzle.find_draw' : 'puzzle.find_win', { side: sideName(solver(p)) });
    status('');
    setState('playing');
    show();
  }

  /** Shows the solver's rating, and `change` when there is one. */
  function showRating(change) {
    const r = Math.round(read(RATING_KEY, NEW_RATING).rating);
    $('pz-rating').textContent = change === undefined ? t('puzzle.rating', { rating: r })
      : t('puzzle.rating_change', { rating: r, change: signed(change) });
  }

  /** Sends the attempt once a puzzle (solved at the first try, or not) and keeps the new rating; offline, the attempt is not rated. */
  async function rate(solved) {
    if (st.rated) return;
    st.rated = true;
    const id = st.puzzle.id;
    try {
      const a = await api('POST', `/api/puzzles/${encodeURIComponent(id)}/attempt`, { solved, rating: read(RATING_KEY, NEW_RATING) });
      write(RATING_KEY, a.rating);
      if (st.closed || st.puzzle.id !== id) return;
      showRating(a.change);
      section.dataset.change = String(a.change);
    } catch (e) {
      // A kept rating the server refuses (changed by hand): a new solver's from now on.
      if (e.code === 'invalid_rating') write(RATING_KEY, NEW_RATING);
      if (st.closed || st.puzzle.id !== id) return;
      $('pz-rating').textContent = e.code === 'offline' ? t('puzzle.unrated_offline') : errorText(e);
    }
  }

  function ensureBoard() {
    const n = st.puzzle.holes;
    const wrap = $('pz-board');
    const across = wrap.clientWidth / (n + 2) >= MIN_CELL;
    if (!st.board || st.board.n !== n || st.board.vertical === across) {
      wrap.replaceChildren();
      st.board = new Board(wrap, n, onHole, !across);
    }
  }

  /** The board index of the mover's hole of `token` (`3` → South's hole 3). */
  function holeOf(token, side) {
    const n = st.puzzle.holes;
    return (side === 'south' ? 0 : n) + Number(/^\d+/.exec(token)[0]) - 1;
  }

  function show() {
    ensureBoard();
    // The solver's row nearest the player, as on a game page.
    st.board.setFlipped(solver(st.puzzle) === 'north');
    const s = st.game.state();
    const legal = new Set();
    const solving = section.dataset.state === 'playing' && st.step % 2 === 0 && !s.over;
    if (solving) for (const m of st.game.legalMoves()) legal.add(holeOf(m, s.to_move));
    st.board.render({
      board: s.board, closed: s.closed, captured: [s.captured[0], s.captured[1]], legal, focusable: true, last: st.last,
    });
    st.board.clearMarks('hint');
    if (solving && st.hints >= 2) st.board.mark(holeOf(st.puzzle.solution[st.step], s.to_move), 'hint', true);
    $('pz-hint').disabled = !solving;
    $('pz-show').disabled = section.dataset.state !== 'playing';
  }

  function onHole(i) {
    if (section.dataset.state !== 'playing' || st.busy || st.step % 2 !== 0) return;
    const s = st.game.state();
    const n = st.puzzle.holes;
    if (s.to_move === 'south' ? i >= n : i < n) return;
    const token = String((i % n) + 1);
    if (!st.game.legalMoves().includes(token)) return;
    if (token === st.puzzle.solution[st.step]) good(token); else wrong(token);
  }

  /** Plays the solution's move `token` and what follows it. */
  function good(token) {
    playMove(token);
    if (st.step >= st.puzzle.solution.length) { solved(); return; }
    // The opponent's forced reply, after a moment.
    st.busy = true;
    show();
    st.timer = setTimeout(() => {
      st.busy = false;
      if (st.closed) return;
      const reply = st.puzzle.solution[st.step];
      playMove(reply);
      status(t('puzzle.good', { move: reply }));
      show();
    }, REPLY_MS);
  }

  function playMove(token) {
    const side = st.game.state().to_move;
    st.game.play(token);
    st.last = { from: [holeOf(token, side)], captured: [] };
    st.step += 1;
  }

  function solved() {
    setState('solved');
    rate(true);
    status(t('puzzle.solved', { moves: st.puzzle.solution.join(' ') }));
    show();
  }

  /** A move that is not the solution: not played; its exact value beside the solution's, when the server has the tables. */
  async function wrong(token) {
    setState('playing');
    rate(false);
    section.dataset.wrong = token;
    st.board.flash(holeOf(token, st.game.state().to_move), 'refused', 400);
    status(t('puzzle.wrong_plain', { move: token }));
    const s = st.game.state();
    const q = new URLSearchParams({
      variant: st.puzzle.variant, holes: String(st.puzzle.holes), position: notation(s),
    });
    try {
      const res = await fetch(`/api/tablebase?${q}`);
      const body = await res.json();
      if (st.closed || section.dataset.wrong !== token || !res.ok) return;
      const value = (m) => body.moves.find((x) => x.move === m)?.value;
      status(t('puzzle.wrong', { move: token, value: signed(value(token)), best: signed(value(st.puzzle.solution[st.step])) }));
      section.dataset.wrongValue = String(value(token));
    } catch { /* offline or no tables: the plain message stays */ }
  }

  /** The notation of the position `s` (the rules' state) as docs/NOTATION.md writes it. */
  function notation(s) {
    const n = st.puzzle.holes;
    const row = (from) => s.board.slice(from, from + n).join(',');
    return `${row(0)}/${row(n)} ${s.to_move === 'north' ? 'n' : 's'} ${s.captured[0]}-${s.captured[1]}`;
  }

  function hint() {
    st.hints += 1;
    rate(false);
    const themes = st.puzzle.themes;
    if (st.hints === 1) {
      status(themes.length ? t('puzzle.hint_theme', { themes: themes.map((x) => t(`theme.${x}`)).join(', ') }) : t('puzzle.hint_quiet'));
    } else {
      status(t('puzzle.hint_hole', { hole: st.puzzle.solution[st.step] }));
    }
    show();
  }

  /** Plays the rest of the solution, a move at a time. */
  function showSolution() {
    rate(false);
    setState('shown');
    status(t('puzzle.shown', { moves: st.puzzle.solution.join(' ') }));
    const step = () => {
      if (st.closed || st.step >= st.puzzle.solution.length) { show(); return; }
      playMove(st.puzzle.solution[st.step]);
      show();
      st.timer = setTimeout(step, REPLY_MS);
    };
    clearTimeout(st.timer);
    st.busy = false;
    step();
  }

  function changedFilter() {
    filter.variant = $('pz-variant').value;
    filter.holes = $('pz-holes').value ? Number($('pz-holes').value) : '';
    write(FILTER_KEY, filter);
  }

  $('pz-hint').addEventListener('click', hint);
  $('pz-show').addEventListener('click', showSolution);
  $('pz-next').addEventListener('click', async () => {
    try {
      const p = await api('GET', nextPath(st.puzzle?.id));
      if (!st.closed) navigate(`${PUZZLE_PATH}/${p.id}`);
    } catch (e) { status(errorText(e)); }
  });
  for (const x of ['pz-variant', 'pz-holes']) $(x).addEventListener('change', changedFilter);
  $('pz-filter').addEventListener('submit', (e) => e.preventDefault());
  const onResize = () => { if (st.puzzle) show(); };
  window.addEventListener('resize', onResize);
  load();

  return () => {
    st.closed = true;
    clearTimeout(st.timer);
    window.removeEventListener('resize', onResize);
    if (st.game) st.game.free();
  };
}
