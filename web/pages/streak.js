// The puzzle streak (/puzzles/streak), as lichess's Puzzle Streak: puzzles
// in rising rating order, each rated above the last (GET
// /api/puzzles/streak, or the offline pack without a server:
// local/puzzles.js), with no hints; one wrong move ends the streak and
// shows the solution. The current streak and the best one (for each
// variant and board filter) are kept on this device, the run under way
// too, so that leaving the page and coming back goes on with it; Start
// again begins a new run (a new seed, which picks the puzzle of each rung).
// Streak puzzles do not change the solver's puzzle rating.

import { t } from '../i18n.js';
import { ready } from '../local/backend.js';
import { html, setHtml } from '../html.js';
import { sideName, errorText } from '../ui.js';
import {
  PuzzleBoard, solver, read, write, filterForm, packNote, FILTER_KEY,
} from './puzzle-play.js';
import { streakPuzzle } from '../local/puzzles.js';

/** Loads the WebAssembly rules the page needs (before `streakPage`). */
export const loaded = ready;
// The run under way ({key, seed, count, above}) and the best streak of each filter.
const RUN_KEY = 'hoyito.puzzle.streak.run';
const BEST_KEY = 'hoyito.puzzle.streak.best';
// A pause after a solved puzzle before the next one comes.
const NEXT_MS = 700;

/** The key of the filter `f` under which the best streak is kept: `II-6`, `any-4`, `any-any`. */
const keyOf = (f) => `${f.variant || 'any'}-${f.holes || 'any'}`;

function layout() {
  return html`<section class="puzzle streak">
    <h1>${t('streak.title')}</h1>
    <p class="muted pz-intro">${t('streak.intro')}</p>
    ${filterForm(html`<a id="sk-puzzles" href="/puzzles" data-nav>${t('puzzle.link')}</a>`)}
    <p id="pz-pack" class="pz-pack" role="status" hidden></p>
    <p class="sk-score"><span>${t('streak.current')} <strong id="sk-current">0</strong></span>
      <span>${t('streak.best')} <strong id="sk-best">0</strong></span></p>
    <p id="pz-info" class="muted"></p>
    <p id="pz-task" class="pz-task" aria-live="polite"></p>
    <div id="pz-board" class="board-wrap"></div>
    <p id="pz-status" class="pz-status" role="status" aria-live="polite"></p>
    <div class="controls">
      <button type="button" id="sk-restart">${t('streak.restart')}</button>
    </div>
  </section>`;
}

/** Shows the streak in `app`; returns the page's teardown. */
export function streakPage(app) {
  document.title = `Hoyito — ${t('streak.title')}`;
  setHtml(app, layout());
  const $ = (x) => document.getElementById(x);
  const section = app.querySelector('.puzzle');
  const st = { closed: false, timer: null, run: null, puzzle: null };
  const play = new PuzzleBoard($('pz-board'), (token) => {
    if (token === play.expected()) good(token); else wrong(token);
  });
  const filter = read(FILTER_KEY, { variant: '', holes: '' });
  $('pz-variant').value = filter.variant || '';
  $('pz-holes').value = String(filter.holes || '');

  const setState = (s) => { section.dataset.state = s; };
  const status = (text) => { $('pz-status').textContent = text; };
  const best = () => read(BEST_KEY, {})[keyOf(filter)] || 0;

  /** Shows the current and best streaks; keeps a new best. */
  function score() {
    const count = st.run ? st.run.count : 0;
    if (count > best()) write(BEST_KEY, { ...read(BEST_KEY, {}), [keyOf(filter)]: count });
    $('sk-current').textContent = String(count);
    $('sk-best').textContent = String(best());
    section.dataset.streak = String(count);
    // The filters change the streak: not while one is under way.
    const going = count > 0 && st.run && !st.run.over;
    $('pz-variant').disabled = going;
    $('pz-holes').disabled = going;
  }

  const save = () => { if (st.run && !st.run.over) write(RUN_KEY, st.run); else localStorage.removeItem(RUN_KEY); };

  /** A new run: a new seed, nothing solved. */
  function restart() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    st.run = {
      key: keyOf(filter), seed, count: 0, above: null,
    };
    save();
    score();
    next();
  }

  /** Loads the run's next puzzle, rated above the last one solved. */
  async function next() {
    clearTimeout(st.timer);
    setState('loading');
    status(t('puzzle.loading'));
    const { run } = st;
    try {
      const r = await streakPuzzle(filter, run.above, run.seed);
      if (st.closed || st.run !== run) return;
      $('pz-pack').textContent = packNote(r.pack);
      $('pz-pack').hidden = !r.pack;
      if (r.pack) section.dataset.pack = String(r.pack); else delete section.dataset.pack;
      if (!r.puzzle) { complete(); return; }
      start(r.puzzle);
    } catch (e) {
      if (st.closed || st.run !== run) return;
      setState('failed');
      status(e.code === 'offline' ? t('puzzle.offline') : errorText(e));
    }
  }

  function start(p) {
    st.puzzle = p;
    play.start(p);
    section.dataset.puzzle = p.id;
    $('pz-info').textContent = t('puzzle.info', { id: p.id, variant: p.variant, holes: p.holes, rating: p.rating });
    $('pz-task').textContent = t(p.result === 'draw' ? 'puzzle.find_draw' : 'puzzle.find_win', { side: sideName(solver(p)) });
    status('');
    setState('playing');
    show();
  }

  function show() {
    if (play.puzzle) play.render({ active: section.dataset.state === 'playing' });
    $('sk-restart').classList.toggle('primary', section.dataset.state === 'over' || section.dataset.state === 'complete');
  }

  /** The solution's move `token`: its forced reply, or the puzzle solved and the next one. */
  function good(token) {
    play.advance(token, (reply) => {
      if (st.closed) return;
      status(t('puzzle.good', { move: reply }));
      show();
    });
    if (!play.done()) { show(); return; }
    st.run.count += 1;
    st.run.above = st.puzzle.rating;
    save();
    score();
    setState('solved');
    status(t('streak.solved', { count: st.run.count }));
    show();
    st.timer = setTimeout(() => { if (!st.closed) next(); }, NEXT_MS);
  }

  /** A wrong move ends the streak: the solution is played out. */
  function wrong(token) {
    const count = st.run.count;
    st.run.over = true;
    save();
    score();
    play.refuse(token);
    setState('over');
    status(t('streak.over', { move: token, count, moves: st.puzzle.solution.slice(play.step).join(' ') }));
    play.playOut(() => { if (!st.closed) show(); });
    show();
    $('sk-restart').focus({ preventScroll: true });
  }

  /** No puzzle is rated above the last one: every rung climbed. */
  function complete() {
    st.run.over = true;
    save();
    score();
    setState('complete');
    status(t('streak.complete', { count: st.run.count }));
    $('pz-info').textContent = '';
    $('pz-task').textContent = '';
    show();
  }

  function changedFilter() {
    filter.variant = $('pz-variant').value;
    filter.holes = $('pz-holes').value ? Number($('pz-holes').value) : '';
    write(FILTER_KEY, filter);
    restart();
  }

  $('sk-restart').addEventListener('click', restart);
  for (const x of ['pz-variant', 'pz-holes']) $(x).addEventListener('change', changedFilter);
  $('pz-filter').addEventListener('submit', (e) => e.preventDefault());
  const onResize = () => { if (st.puzzle) show(); };
  window.addEventListener('resize', onResize);

  // The run under way for these filters goes on; else a new one.
  const kept = read(RUN_KEY, null);
  if (kept && kept.key === keyOf(filter) && Number.isInteger(kept.count) && Number.isInteger(kept.seed)) {
    st.run = kept;
    score();
    next();
  } else {
    restart();
  }

  return () => {
    st.closed = true;
    clearTimeout(st.timer);
    window.removeEventListener('resize', onResize);
    play.free();
  };
}
