// The puzzle page (/puzzles, /puzzles/<id>): a position from the server's
// puzzle set (GET /api/puzzles/…, each proved by the endgame tables) where
// one move keeps the result. The player plays the solution on the board;
// the opponent's forced replies are played for them; a wrong move is not
// played but shown with its exact value beside the solution's (from
// /api/tablebase, or offline from the tables kept on this device,
// local/tables.js); hints give the theme, then the hole; the solution can
// be shown; Next puzzle follows the set, filtered by variant and board.
// The solver's Glicko-2 rating is kept on the device; each puzzle's first
// attempt (solved, or a wrong move, a hint or the solution shown) is sent to
// POST /api/puzzles/<id>/attempt, which answers the new rating; offline, the
// attempt is not rated. Signed in, the rating is the account's (kept by the
// server, read with GET /api/puzzles/rating when the page opens), and the
// device keeps a copy of it.
// /puzzles/daily is the puzzle of the UTC day (GET /api/puzzles/daily, the
// same for everyone), with the filters; /puzzles/streak is the streak
// (pages/streak.js).
// Without a server (offline), the puzzles come from the offline pack the
// app keeps (local/puzzles.js), and the page says so; the puzzle of the
// day needs the server.
// The rules are the WebAssembly module's (`Game.fromNotation`, `play`),
// through the board of pages/puzzle-play.js.

import { t } from '../i18n.js';
import { probeStored } from '../local/tables.js';
import { ready } from '../local/backend.js';
import { html, setHtml } from '../html.js';
import { sideName, errorText } from '../ui.js';
import { api, whoAmI } from '../api.js';
import { navigate } from '../nav.js';
import {
  PuzzleBoard, solver, signed, read, write, filterForm, packNote, FILTER_KEY,
} from './puzzle-play.js';
import { puzzleById, nextPuzzle, dailyPuzzle } from '../local/puzzles.js';

export const PUZZLE_PATH = '/puzzles';
/** The id in `/puzzles/<id>` that shows the puzzle of the day. */
export const DAILY = 'daily';
/** The path of the streak (pages/streak.js). */
export const STREAK_PATH = '/puzzles/streak';
/** Loads the WebAssembly rules the page needs (before `puzzlePage`). */
export const loaded = ready;
// Where the set was left, on this device.
const LAST_KEY = 'hoyito.puzzle.last';
// The solver's Glicko-2 rating on this device (a new solver's first).
const RATING_KEY = 'hoyito.puzzle.rating';
const NEW_RATING = { rating: 1500, deviation: 350, volatility: 0.06 };

function layout() {
  return html`<section class="puzzle">
    <h1>${t('puzzle.title')}</h1>
    <p class="muted pz-intro">${t('puzzle.intro')}</p>
    ${filterForm(html`<a id="pz-daily" href="${PUZZLE_PATH}/${DAILY}" data-nav>${t('puzzle.daily')}</a>
      <a id="pz-streak-link" href="${STREAK_PATH}" data-nav>${t('streak.title')}</a>`)}
    <p id="pz-pack" class="pz-pack" role="status" hidden></p>
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
    puzzle: null, hints: 0, closed: false, rated: false, pack: 0,
  };
  const play = new PuzzleBoard($('pz-board'), (token) => {
    if (token === play.expected()) good(token); else wrong(token);
  });
  const filter = read(FILTER_KEY, { variant: '', holes: '' });
  $('pz-variant').value = filter.variant || '';
  $('pz-holes').value = String(filter.holes || '');

  const setState = (s) => { section.dataset.state = s; };
  const status = (text) => { $('pz-status').textContent = text; };

  /** Says whether the puzzle came from the offline pack (of `pack` puzzles) or the server (0). */
  function showSource(pack) {
    st.pack = pack;
    $('pz-pack').textContent = packNote(pack);
    $('pz-pack').hidden = !pack;
    if (pack) section.dataset.pack = String(pack); else delete section.dataset.pack;
  }

  async function load() {
    setState('loading');
    status(t('puzzle.loading'));
    try {
      let r;
      if (id === DAILY) r = await dailyPuzzle(filter);
      else if (id) r = await puzzleById(id);
      else r = await nextPuzzle(filter, read(LAST_KEY, null));
      if (st.closed) return;
      showSource(r.pack);
      if (!r.puzzle) {
        setState('failed');
        status(t(id === DAILY ? 'puzzle.daily_offline' : 'puzzle.not_in_pack'));
        return;
      }
      const p = r.puzzle;
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
    st.hints = 0;
    st.rated = false;
    delete section.dataset.change;
    showRating();
    write(LAST_KEY, p.id);
    play.start(p);
    const info = t('puzzle.info', { id: p.id, variant: p.variant, holes: p.holes, rating: p.rating });
    $('pz-info').textContent = p.date ? `${t('puzzle.daily_of', { date: p.date })} · ${info}` : info;
    $('pz-task').textContent = t(p.result === 'draw' ? 'puzzle.find_draw' : 'puzzle.find_win', { side: sideName(solver(p)) });
    status('');
    setState('playing');
    show();
  }

  /** Signed in: the account's rating becomes the device's (an account without one keeps the device's, its first attempt's start). */
  async function accountRating() {
    if (!(await whoAmI()) || st.closed) return;
    try {
      const { rating } = await api('GET', '/api/puzzles/rating');
      if (!rating || st.closed) return;
      write(RATING_KEY, rating);
      section.dataset.accountRating = String(Math.round(rating.rating));
      if (section.dataset.change === undefined) showRating();
    } catch {
      // Offline, or signed out meanwhile: the device's rating stands.
    }
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
    const pid = st.puzzle.id;
    if (st.pack) { $('pz-rating').textContent = t('puzzle.unrated_offline'); return; }
    try {
      const a = await api('POST', `/api/puzzles/${encodeURIComponent(pid)}/attempt`, { solved, rating: read(RATING_KEY, NEW_RATING) });
      write(RATING_KEY, a.rating);
      if (st.closed || st.puzzle.id !== pid) return;
      showRating(a.change);
      section.dataset.change = String(a.change);
    } catch (e) {
      // A kept rating the server refuses (changed by hand): a new solver's from now on.
      if (e.code === 'invalid_rating') write(RATING_KEY, NEW_RATING);
      if (st.closed || st.puzzle.id !== pid) return;
      $('pz-rating').textContent = e.code === 'offline' ? t('puzzle.unrated_offline') : errorText(e);
    }
  }

  function show() {
    const playing = section.dataset.state === 'playing';
    play.render({ active: playing, hint: st.hints >= 2 });
    $('pz-hint').disabled = !play.solving();
    $('pz-show').disabled = !playing;
  }

  /** Plays the solution's move `token` and what follows it. */
  function good(token) {
    play.advance(token, (reply) => {
      if (st.closed) return;
      status(t('puzzle.good', { move: reply }));
      show();
    });
    if (play.done()) solved(); else show();
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
    play.refuse(token);
    status(t('puzzle.wrong_plain', { move: token }));
    const position = play.notation();
    const q = new URLSearchParams({ variant: st.puzzle.variant, holes: String(st.puzzle.holes), position });
    let body = null;
    try {
      const res = await fetch(`/api/tablebase?${q}`);
      body = res.ok ? await res.json() : null;
    } catch {
      // No server: the tables kept on this device, if they hold the position.
      body = await probeStored({ variant: st.puzzle.variant, holes: st.puzzle.holes }, position);
    }
    // Without tables that hold it, the plain message stays.
    if (st.closed || section.dataset.wrong !== token || !body) return;
    const value = (m) => body.moves.find((x) => x.move === m)?.value;
    status(t('puzzle.wrong', { move: token, value: signed(value(token)), best: signed(value(play.expected())) }));
    section.dataset.wrongValue = String(value(token));
  }

  function hint() {
    st.hints += 1;
    rate(false);
    const themes = st.puzzle.themes;
    if (st.hints === 1) {
      status(themes.length ? t('puzzle.hint_theme', { themes: themes.map((x) => t(`theme.${x}`)).join(', ') }) : t('puzzle.hint_quiet'));
    } else {
      status(t('puzzle.hint_hole', { hole: play.expected() }));
    }
    show();
  }

  /** Plays the rest of the solution, a move at a time. */
  function showSolution() {
    rate(false);
    setState('shown');
    status(t('puzzle.shown', { moves: st.puzzle.solution.join(' ') }));
    play.playOut(() => { if (!st.closed) show(); });
    show();
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
      const r = await nextPuzzle(filter, st.puzzle?.id);
      if (st.closed) return;
      if (r.puzzle) navigate(`${PUZZLE_PATH}/${r.puzzle.id}`); else status(t('puzzle.not_in_pack'));
    } catch (e) { status(errorText(e)); }
  });
  for (const x of ['pz-variant', 'pz-holes']) $(x).addEventListener('change', changedFilter);
  $('pz-filter').addEventListener('submit', (e) => e.preventDefault());
  const onResize = () => { if (st.puzzle) show(); };
  window.addEventListener('resize', onResize);
  load();
  accountRating();

  return () => {
    st.closed = true;
    window.removeEventListener('resize', onResize);
    play.free();
  };
}
