// "Learn from your mistakes" (/g/<id>/learn): the positions of a finished
// game where the player's move lost the result, as its post-game analysis
// says (game/mistakes.js), one exercise after another. The board shows the
// position before the mistake (the game view's replay frame) with the
// mover's row nearest; the player picks a move on it (a hole, its second
// hole in a two-hole opening, its direction where the mover chooses it),
// as the analysis lists the legal moves with their holes. A move the
// analysis reads as keeping the result is accepted, with its value; any
// other is refused with its value, the move played in the game named as
// such; "Show a good move" marks the analysis's best. Nothing is played or
// sent: the exercise only reads the game and its analysis.

import { t } from '../i18n.js';
import { api, seats } from '../api.js';
import { html, setHtml } from '../html.js';
import { sideName, errorText } from '../ui.js';
import { Board } from '../board.js';
import { isLocalId } from '../local/backend.js';
import { buildFrames } from '../game/state.js';
import { exercises, playerSides, RESULT } from '../game/mistakes.js';

/** Nothing to load beyond the modules themselves. */
export const loaded = () => Promise.resolve();
// The least cell of a hole lying across (CSS px), as on the puzzle page.
const MIN_CELL = 40;

const signed = (v) => (v > 0 ? `+${v}` : String(v));

function layout(id) {
  return html`<section class="puzzle learn">
    <h1>${t('learn.title')}</h1>
    <p class="muted pz-intro">${t('learn.intro')}</p>
    <p id="lm-progress" class="muted"></p>
    <p id="pz-task" class="pz-task" aria-live="polite"></p>
    <div id="pz-board" class="board-wrap"></div>
    <div id="lm-dir" class="controls lm-dir" role="group" aria-label="${t('game.direction')}" hidden>
      <button type="button" id="lm-dir-L">${t('dir.L')}</button>
      <button type="button" id="lm-dir-R">${t('dir.R')}</button>
    </div>
    <p id="pz-status" class="pz-status" role="status" aria-live="polite"></p>
    <div class="controls">
      <button type="button" id="lm-show">${t('learn.show')}</button>
      <button type="button" id="lm-next">${t('learn.next')}</button>
      <a id="lm-back" href="/g/${id}" data-nav>${t('learn.back')}</a>
    </div>
  </section>`;
}

/**
 * Where each move of `ex` is sown: its `holes` and `dir` from the
 * analysis; analyses stored before the server sent them give only the
 * tokens (`3`, `3R`, `2+5`), read here as the rules write them.
 */
function sown(ex, n) {
  const row = ex.side === 'south' ? 0 : n;
  return ex.moves.map((m) => {
    if (m.holes && m.holes.length) return { ...m, dir: m.dir || null };
    const t2 = /^(\d+)(?:\+(\d+))?([LR])?$/.exec(m.token);
    if (!t2) return { ...m, holes: [] };
    const holes = [row + Number(t2[1]) - 1];
    if (t2[2]) holes.push(row + Number(t2[2]) - 1);
    return { ...m, holes, dir: t2[3] || null };
  });
}

/** Shows the exercises of game `id` in `app`; returns the page's teardown. */
export function mistakesPage(app, id) {
  document.title = `Hoyito — ${t('learn.title')}`;
  setHtml(app, layout(id));
  const $ = (x) => document.getElementById(x);
  const section = app.querySelector('.puzzle');
  const st = {
    closed: false, view: null, frames: null, list: [], i: 0, board: null, moves: [], first: null, pick: null, chosen: null, found: 0, shown: false,
  };
  const setState = (s) => { section.dataset.state = s; };
  const status = (text) => { $('pz-status').textContent = text; };
  /** The result words of a standing in the catalogues' keys: `win`, `draw`, `loss`. */
  const word = (standing) => RESULT[standing];
  /** A move's value as the analysis gives it: `final margin +8, exact` or `final margin -3, estimate`. */
  const value = (m) => `${t('learn.margin', { margin: signed(m.score) })}, ${t(m.exact ? 'an.exact' : 'an.estimate')}`;

  async function load() {
    setState('loading');
    status(t('learn.loading'));
    try {
      if (isLocalId(id)) throw Object.assign(new Error(t('learn.none')), { code: 'local' });
      const v = await api('GET', `/api/games/${id}`);
      const an = await api('GET', `/api/games/${id}/analysis`);
      if (st.closed) return;
      st.view = v;
      $('lm-back').setAttribute('href', `/g/${id}`);
      if (!an || an.status !== 'done' || an.epoch !== v.epoch || an.seq !== v.seq) {
        setState('failed');
        status(t('learn.no_analysis'));
        return;
      }
      const stored = seats.get(id);
      st.list = exercises(an, playerSides(v, stored ? stored.seat : null));
      st.frames = buildFrames(v);
      if (!st.list.length) {
        setState('none');
        status(t('learn.none'));
        show();
        return;
      }
      begin(0);
    } catch (e) {
      if (st.closed) return;
      setState('failed');
      status(e.code === 'local' ? e.message : errorText(e));
    }
  }

  /** Shows exercise `i`. */
  function begin(i) {
    st.i = i;
    st.first = null;
    st.pick = null;
    st.chosen = null;
    st.shown = false;
    const ex = st.list[i];
    st.moves = sown(ex, st.view.rules.holes);
    delete section.dataset.wrong;
    delete section.dataset.chosen;
    section.dataset.exercise = String(i + 1);
    section.dataset.frame = String(ex.frame);
    $('lm-progress').textContent = t('learn.progress', { i: i + 1, n: st.list.length, seq: ex.frame + 1 });
    $('pz-task').textContent = `${t(`learn.task_${word(ex.target)}_${word(ex.lost)}`, { move: ex.played.token })} ${t(`learn.find_${word(ex.target)}`, { side: sideName(ex.side) })}`;
    status('');
    setState('playing');
    show();
  }

  /** Whether the player may pick a move now: playing, or after a good move was shown. */
  const playable = () => ['playing', 'shown'].includes(section.dataset.state);

  /** The holes that may be picked now: a move's first hole, or the second of a two-hole move begun. */
  function pickable() {
    const out = new Set();
    if (!playable()) return out;
    for (const m of st.moves) {
      if (!m.holes.length) continue;
      if (st.first === null) out.add(m.holes[0]);
      else if (m.holes.length > 1 && m.holes[0] === st.first) out.add(m.holes[1]);
    }
    return out;
  }

  function show() {
    const ex = st.list[st.i];
    const { state } = section.dataset;
    $('lm-show').disabled = !ex || !playable() || st.shown;
    $('lm-next').disabled = !ex || state === 'done';
    $('lm-next').textContent = t(st.i + 1 < st.list.length ? 'learn.next' : 'learn.finish');
    $('lm-next').classList.toggle('primary', state === 'solved' || state === 'shown');
    $('lm-dir').hidden = st.pick === null;
    if (!ex) return;
    const f = st.frames[ex.frame];
    const n = st.view.rules.holes;
    const wrap = $('pz-board');
    const across = wrap.clientWidth / (n + 2) >= MIN_CELL;
    if (!st.board || st.board.n !== n || st.board.vertical === across) {
      wrap.replaceChildren();
      st.board = new Board(wrap, n, onHole, !across);
    }
    st.board.setFlipped(ex.side === 'north');
    const last = st.chosen ? { from: st.chosen.holes, captured: [] } : null;
    st.board.render({
      board: f.board, closed: f.closed, captured: f.captured, legal: pickable(), focusable: true, last,
    });
    st.board.clearMarks('hint');
    if (st.first !== null) st.board.mark(st.first, 'hint', true);
    if (st.shown) for (const h of st.moves[0].holes) st.board.mark(h, 'hint', true);
  }

  function onHole(i) {
    if (!playable()) return;
    // A direction asked for and not chosen: another hole starts again.
    st.pick = null;
    if (!pickable().has(i)) {
      if (st.first === i) { st.first = null; show(); return; }
      st.board.flash(i, 'refused', 400);
      return;
    }
    if (st.first === null && st.moves.some((m) => m.holes.length > 1 && m.holes[0] === i)) {
      st.first = i;
      show();
      return;
    }
    const holes = st.first === null ? [i] : [st.first, i];
    const same = (m) => m.holes.length === holes.length && m.holes.every((h, j) => h === holes[j]);
    const choices = st.moves.filter(same);
    st.first = null;
    if (new Set(choices.map((m) => m.dir)).size > 1) {
      st.pick = choices;
      show();
      $('lm-dir-L').focus({ preventScroll: true });
      return;
    }
    judge(choices[0]);
  }

  /** The player's move `m`: accepted if the analysis reads it as keeping the result. */
  function judge(m) {
    const ex = st.list[st.i];
    st.pick = null;
    if (!ex.good.some((g) => g.token === m.token)) {
      section.dataset.wrong = m.token;
      for (const h of m.holes) st.board.flash(h, 'refused', 400);
      status(m.token === ex.played.token ? t('learn.again', { value: value(m) }) : t(`learn.wrong_${word(ex.target)}`, { move: m.token, value: value(m) }));
      show();
      return;
    }
    st.chosen = m;
    if (!st.shown) st.found += 1;
    setState('solved');
    section.dataset.chosen = m.token;
    const best = m.token === ex.best.token ? '' : ` ${t('learn.best_was', { move: ex.best.token, value: value(ex.best) })}`;
    status(`${t(`learn.good_${word(ex.target)}`, { move: m.token, value: value(m) })}${best}`);
    show();
    $('lm-next').focus({ preventScroll: true });
  }

  function next() {
    if (st.i + 1 < st.list.length) { begin(st.i + 1); return; }
    setState('done');
    st.pick = null;
    $('pz-task').textContent = '';
    status(t('learn.done', { found: st.found, n: st.list.length }));
    show();
    $('lm-back').focus({ preventScroll: true });
  }

  $('lm-show').addEventListener('click', () => {
    const ex = st.list[st.i];
    st.shown = true;
    st.pick = null;
    st.first = null;
    setState('shown');
    status(t('learn.shown', { move: ex.best.token, value: value(ex.best) }));
    show();
  });
  $('lm-next').addEventListener('click', next);
  for (const d of ['L', 'R']) {
    $(`lm-dir-${d}`).addEventListener('click', () => {
      const m = st.pick && st.pick.find((x) => x.dir === d);
      if (m) judge(m);
    });
  }
  const onResize = () => { if (st.view) show(); };
  window.addEventListener('resize', onResize);
  load();

  return () => {
    st.closed = true;
    window.removeEventListener('resize', onResize);
  };
}
