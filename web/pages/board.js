// The analysis board (/analysis): set up any position (seeds per hole,
// captured seeds, side to move, variant, board size) or type its notation,
// validated by the rules' own code (WebAssembly `Game.fromSetup`); see each
// legal move's value, exact from the server's endgame tables
// (/api/tablebase) when it holds the position — without a server, from the
// tables kept on this device (local/tables.js) —, else the engine's estimate
// (`Game.analyze`, in a worker); play moves and step back. The position,
// variant and board size are in the address, so a link opens it here.
// A game page's menu opens it at the step shown (`analysisPath`).

import { t } from '../i18n.js';
import { Board } from '../board.js';
import { Game, rulesOptions } from '../wasm/hoyito_wasm.js';
import { ready } from '../local/backend.js';
import { html, setHtml, scriptUrl } from '../html.js';
import { sideName, errorText } from '../ui.js';
import { probeStored } from '../local/tables.js';
import { offlineTablesControl } from './offline-tables.js';

export const BOARD_PATH = '/analysis';
/** Loads the WebAssembly rules the page needs (before `boardPage` and `analysisPath`). */
export const loaded = ready;
const LEVEL = 10;
const ENGINE_MS = 1200;
// The least cell of a hole lying across (CSS px): a 2×6 board lies across a
// 360 px phone (43 px cells); narrower, it stands upright.
const MIN_CELL = 40;

/** A position's one-line notation (docs/NOTATION.md) from its board, closed holes, side to move and captures. */
export function positionNotation({ board, closed = [], toMove, captured = [0, 0] }) {
  const n = board.length / 2;
  const cell = (i) => (closed.includes(i) ? 'x' : String(board[i]));
  const row = (from) => Array.from({ length: n }, (_, k) => cell(from + k)).join(',');
  return `${row(0)}/${row(n)} ${toMove === 'north' ? 'n' : 's'} ${captured[0]}-${captured[1]}`;
}

/** The analysis board's path for `rules` (variant, holes, …) and a position. */
export function analysisPath(rules, pos) {
  const q = new URLSearchParams();
  // The variant and board size, and any other option not at its standard value.
  for (const o of rulesOptions()) {
    const v = rules ? rules[o.name] : undefined;
    if (v === undefined || o.name === 'seeds') continue;
    if (o.name === 'variant' || o.name === 'holes' || String(v) !== String(o.default)) q.set(o.name, String(v));
  }
  q.set('position', positionNotation(pos));
  return `${BOARD_PATH}?${q}`;
}

const other = (side) => (side === 'south' ? 'north' : 'south');
const signed = (v) => (v > 0 ? `+${v}` : String(v));

function layout() {
  return html`<section class="analysis-board">
    <h1>${t('board.title')}</h1>
    <p class="muted">${t('board.intro')}</p>
    <div class="ab-main">
      <div class="ab-board-area">
        <p id="ab-turn" class="ab-turn" aria-live="polite"></p>
        <div id="ab-board" class="board-wrap"></div>
        <p id="ab-hint" class="muted ab-hint"></p>
        <p id="ab-error" class="ab-error" role="alert"></p>
        <div class="controls ab-controls">
          <button type="button" id="ab-back" disabled>${t('board.back')}</button>
          <button type="button" id="ab-edit" aria-pressed="false">${t('board.edit')}</button>
        </div>
      </div>
      <div class="ab-side">
        <section id="ab-analysis" class="ab-analysis" aria-live="polite" aria-busy="true"></section>
        <p id="ab-played" class="muted"></p>
        <form id="ab-setup" class="ab-setup" hidden>
          <div class="controls">
            <button type="button" id="ab-remove" aria-pressed="false">${t('board.remove')}</button>
            <button type="button" id="ab-clear">${t('board.clear')}</button>
            <button type="button" id="ab-start">${t('board.start')}</button>
          </div>
          <label>${t('new.variant')} <select id="ab-variant">${['I', 'II', 'III'].map((v) => html`<option value="${v}">${t(`variant.${v}`)}</option>`)}</select></label>
          <label>${t('new.holes')} <select id="ab-holes">${[4, 6].map((n) => html`<option value="${n}">2×${n}</option>`)}</select></label>
          <label>${t('board.to_move')} <select id="ab-side">${['south', 'north'].map((s) => html`<option value="${s}">${sideName(s)}</option>`)}</select></label>
          <label>${t('board.captured', { side: sideName('south') })} <input id="ab-cap-s" type="number" min="0" max="240" inputmode="numeric"></label>
          <label>${t('board.captured', { side: sideName('north') })} <input id="ab-cap-n" type="number" min="0" max="240" inputmode="numeric"></label>
        </form>
        <form id="ab-notation-form" class="ab-notation">
          <label for="ab-notation">${t('board.notation')}</label>
          <div class="ab-row"><input id="ab-notation" type="text" spellcheck="false" autocomplete="off" autocapitalize="off">
          <button type="submit">${t('board.load')}</button></div>
        </form>
        <section id="ab-tables" class="ab-tables" aria-labelledby="ot-title"></section>
      </div>
    </div>
  </section>`;
}

/** Shows the analysis board in `app`; returns the page's teardown. */
export function boardPage(app) {
  document.title = `Hoyito — ${t('board.title')}`;
  setHtml(app, layout());
  const $ = (id) => document.getElementById(id);
  const names = new Set(rulesOptions().map((o) => o.name));
  const params = new URLSearchParams(location.search);
  const options = { variant: 'II', holes: 6 };
  const value = (v) => (/^\d+$/.test(v) ? Number(v) : v === 'true' ? true : v === 'false' ? false : v);
  for (const [k, v] of params) if (names.has(k)) options[k] = value(v);
  if (![4, 6].includes(options.holes)) options.holes = 6;

  const st = {
    options, base: null, game: null, played: [], editing: false, removing: false, job: 0, board: null, worker: null, closed: false,
  };

  /** The rules' own start (the seeds per hole are theirs to say). */
  function startPosition() {
    const game = new Game(st.options);
    const s = game.state();
    game.free();
    return { board: s.board, closed: s.closed, toMove: s.to_move, captured: [0, 0] };
  }

  /** The position shown: the set-up one after the moves played. */
  function current() {
    if (!st.game) return { ...st.base, over: false };
    const s = st.game.state();
    return {
      board: s.board, closed: s.closed, toMove: s.to_move || st.base.toMove, over: s.over,
      captured: [s.captured[0], s.captured[1]],
    };
  }

  /** Builds the rules' game of the set-up position; shows the rules' error for an impossible one. */
  function validate() {
    if (st.game) { st.game.free(); st.game = null; }
    st.played = [];
    try {
      st.game = Game.fromSetup(st.options, {
        board: st.base.board, closed: st.base.closed, to_move: st.base.toMove, captured: st.base.captured,
      });
      $('ab-error').textContent = '';
      return true;
    } catch (e) {
      $('ab-error').textContent = t('board.invalid', { error: String(e.message || e).replace(/^invalid setup: /, '') });
      return false;
    }
  }

  function ensureBoard() {
    const n = st.options.holes;
    const wrap = $('ab-board');
    const across = wrap.clientWidth / (n + 2) >= MIN_CELL;
    if (!st.board || st.board.n !== n || st.board.vertical === across) {
      wrap.replaceChildren();
      st.board = new Board(wrap, n, onHole, !across);
    }
  }

  function onHole(i) {
    if (st.editing) {
      const b = st.base;
      if (b.closed.includes(i)) return;
      b.board[i] = st.removing ? Math.max(0, b.board[i] - 1) : b.board[i] + 1;
      changed();
      return;
    }
    if (!st.game || st.game.isOver()) return;
    const s = st.game.state();
    const n = st.options.holes;
    const own = s.to_move === 'south' ? i < n : i >= n;
    if (!own) return;
    const token = String((i % n) + 1);
    if (!st.game.legalMoves().includes(token)) return;
    play(token);
  }

  function play(token) {
    try { st.game.play(token); } catch (e) { $('ab-error').textContent = String(e.message || e); return; }
    st.played.push(token);
    show();
  }

  function back() {
    if (!st.played.length) return;
    st.game.undo();
    st.played.pop();
    show();
  }

  /** The set-up position changed (a tap, a field): validate, write the address, analyse. */
  function changed() {
    validate();
    show();
  }

  function writeAddress(pos) {
    const path = analysisPath(st.options, pos);
    if (location.pathname + location.search !== path) history.replaceState(null, '', path);
  }

  function show() {
    ensureBoard();
    const pos = current();
    const n = st.options.holes;
    const legal = new Set();
    if (!st.editing && st.game && !pos.over) {
      const first = pos.toMove === 'south' ? 0 : n;
      for (const m of st.game.legalMoves()) legal.add(first + Number(/^\d+/.exec(m)[0]) - 1);
    }
    const all = st.editing ? new Set(pos.board.map((_, i) => i).filter((i) => !pos.closed.includes(i))) : legal;
    st.board.render({ board: pos.board, closed: pos.closed, captured: pos.captured, legal: all, focusable: true });
    $('ab-turn').textContent = pos.over ? t('board.over') : t('board.turn', { side: sideName(pos.toMove) });
    $('ab-hint').textContent = st.editing ? t(st.removing ? 'board.remove_hint' : 'board.add_hint') : t('board.play_hint');
    $('ab-back').disabled = !st.played.length;
    $('ab-played').textContent = st.played.length ? t('board.played', { moves: st.played.join(' ') }) : '';
    const text = positionNotation(pos);
    if (document.activeElement !== $('ab-notation')) $('ab-notation').value = text;
    $('ab-variant').value = st.options.variant;
    $('ab-holes').value = String(n);
    $('ab-side').value = st.base.toMove;
    $('ab-cap-s').value = String(st.base.captured[0]);
    $('ab-cap-n').value = String(st.base.captured[1]);
    if (st.game) writeAddress(pos);
    analyse(pos);
  }

  /** The values of `pos`: the tables' exact ones if the server has them, else the engine's estimates. */
  async function analyse(pos) {
    st.job += 1;
    const job = st.job;
    const box = $('ab-analysis');
    box.setAttribute('aria-busy', 'true');
    box.dataset.state = 'busy';
    if (!st.game) { setHtml(box, html``); box.dataset.state = 'invalid'; box.setAttribute('aria-busy', 'false'); return; }
    if (pos.over) { setHtml(box, html`<p>${t('board.over')}</p>`); box.dataset.state = 'over'; box.setAttribute('aria-busy', 'false'); return; }
    setHtml(box, html`<p class="muted"><span class="spinner" aria-hidden="true"></span> ${t('board.thinking')}</p>`);
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(st.options)) q.set(k, String(v));
    q.set('position', positionNotation(pos));
    let note = null;
    try {
      const res = await fetch(`/api/tablebase?${q}`);
      const body = await res.json().catch(() => null);
      if (job !== st.job || st.closed) return;
      if (res.ok && body) { render(pos, 'exact', body.value, body.moves.map((m) => ({ move: m.move, value: m.value })), null, null, body.proved); return; }
      note = body && body.code === 'tablebase_building' ? t('board.building')
        : body && body.code === 'not_in_tablebases' ? t('board.not_in_tables')
        : body && body.code === 'not_proved' ? t('board.not_proved') : t('board.no_exact', { error: errorText(body || { message: res.status }) });
    } catch {
      // No server: the exact values from the tables kept on this device, if they hold the position.
      const local = await probeStored(st.options, positionNotation(pos));
      if (job !== st.job || st.closed) return;
      if (local) { render(pos, 'exact', local.value, local.moves.map((m) => ({ move: m.move, value: m.value })), null, null, 'device'); return; }
      note = t('board.offline');
    }
    try {
      const a = await engine(pos);
      if (job !== st.job || st.closed) return;
      const line = a.moves.find((m) => m.move === a.best)?.pv || [];
      render(pos, 'estimate', a.score, a.moves.map((m) => ({ move: m.move, value: m.score })), note, line);
    } catch (e) {
      if (job !== st.job || st.closed) return;
      setHtml(box, html`<p>${note}</p><p>${String(e.message || e)}</p>`);
      box.dataset.state = 'failed';
      box.setAttribute('aria-busy', 'false');
    }
  }

  /** The engine's analysis of `pos` (the rules' `Game.analyze`), in a worker. */
  function engine(pos) {
    if (!st.worker) st.worker = new Worker(scriptUrl(new URL('../local/engine-worker.js', import.meta.url)), { type: 'module' });
    const job = st.job;
    return new Promise((resolve, reject) => {
      st.worker.onmessage = (m) => {
        if (m.data.job !== job) return;
        if (m.data.error) reject(new Error(m.data.error)); else resolve(m.data.analysis);
      };
      st.worker.onerror = (err) => { st.worker = null; reject(new Error(err.message || 'engine')); };
      st.worker.postMessage({
        job, level: LEVEL, timeMs: ENGINE_MS,
        analyze: { options: st.options, setup: { board: pos.board, closed: pos.closed, to_move: pos.toMove } },
      });
    });
  }

  /** Shows the values of `pos`; `proved` (exact values) is what proved them: `tables` or `search`. */
  function render(pos, source, value, moves, note, line, proved) {
    const box = $('ab-analysis');
    const side = sideName(pos.toMove);
    const opp = sideName(other(pos.toMove));
    const best = Math.max(...moves.map((m) => m.value));
    const sorted = moves.slice().sort((a, b) => b.value - a.value);
    const said = value > 0 ? t('board.value.ahead', { side, other: opp, n: value })
      : value < 0 ? t('board.value.behind', { side, other: opp, n: -value }) : t('board.value.even', { side, other: opp });
    setHtml(box, html`<h2>${t('board.values')}</h2>
      <p class="ab-source ${source}"><span class="badge">${t(`board.${source}`)}</span> ${t(proved === 'search' ? 'board.exact_search_note' : proved === 'device' ? 'board.exact_device_note' : `board.${source}_note`)}</p>
      ${note ? html`<p class="muted ab-note">${note}</p>` : ''}
      <p class="ab-value" data-value="${value}"><strong>${signed(value)}</strong> · ${said}</p>
      <table class="ab-moves">
        <thead><tr><th scope="col">${t('board.col.move')}</th><th scope="col">${t('board.col.value', { side })}</th><th scope="col"><span class="sr-only">${t('board.best')}</span></th></tr></thead>
        <tbody>${sorted.map((m) => html`<tr class="${m.value === best ? 'best' : ''}" data-move="${m.move}" data-value="${m.value}">
          <td><button type="button" class="ab-play" data-move="${m.move}" aria-label="${t('board.play', { move: m.move })}">${m.move}</button></td>
          <td>${signed(m.value)} <span class="muted">${t(`board.${source}`)}</span></td>
          <td>${m.value === best ? html`<span class="best-mark">${t('board.best')}</span>` : ''}</td></tr>`)}</tbody>
      </table>
      ${line && line.length ? html`<p class="muted">${t('board.line', { moves: line.join(' ') })}</p>` : ''}`);
    box.dataset.state = source;
    box.dataset.proved = proved || '';
    box.setAttribute('aria-busy', 'false');
    box.dispatchEvent(new CustomEvent('analysed', { bubbles: true }));
  }

  // --- the controls ---
  $('ab-analysis').addEventListener('click', (e) => {
    const b = e.target.closest('button.ab-play');
    if (b && !st.editing) play(b.dataset.move);
  });
  $('ab-back').addEventListener('click', back);
  $('ab-edit').addEventListener('click', () => {
    if (!st.editing) {
      // Editing starts from the position shown (the moves played become its set-up).
      const pos = current();
      st.base = { board: pos.board.slice(), closed: pos.closed.slice(), toMove: pos.toMove, captured: pos.captured.slice() };
    }
    st.editing = !st.editing;
    $('ab-edit').setAttribute('aria-pressed', String(st.editing));
    $('ab-edit').textContent = t(st.editing ? 'board.done' : 'board.edit');
    $('ab-setup').hidden = !st.editing;
    changed();
  });
  $('ab-remove').addEventListener('click', () => {
    st.removing = !st.removing;
    $('ab-remove').setAttribute('aria-pressed', String(st.removing));
    show();
  });
  $('ab-clear').addEventListener('click', () => { st.base.board = st.base.board.map(() => 0); st.base.closed = []; changed(); });
  $('ab-start').addEventListener('click', () => { st.base = startPosition(); changed(); });
  $('ab-variant').addEventListener('change', (e) => { st.options.variant = e.target.value; changed(); });
  $('ab-holes').addEventListener('change', (e) => { st.options.holes = Number(e.target.value); st.base = startPosition(); changed(); });
  $('ab-side').addEventListener('change', (e) => { st.base.toMove = e.target.value; changed(); });
  for (const [id, k] of [['ab-cap-s', 0], ['ab-cap-n', 1]]) {
    $(id).addEventListener('change', (e) => {
      st.base.captured[k] = Math.max(0, Math.min(240, Math.floor(Number(e.target.value) || 0)));
      changed();
    });
  }
  $('ab-setup').addEventListener('submit', (e) => e.preventDefault());
  $('ab-notation-form').addEventListener('submit', (e) => {
    e.preventDefault();
    open($('ab-notation').value);
    $('ab-notation').blur();
    show();
  });

  /** Opens the position written in `text` (read by the rules' own code); says what is wrong with it otherwise. */
  function open(text) {
    const value = String(text || '').trim();
    // The board's size is its rows' length (2×4 or 2×6); the rest is the core's to read.
    const holes = value.split('/')[0].split(',').length;
    const options = [4, 6].includes(holes) ? { ...st.options, holes } : st.options;
    let game;
    try {
      game = Game.fromNotation(options, value);
    } catch (e) {
      if (st.game) { st.game.free(); st.game = null; }
      // Without a slash it is no position at all: say how one is written.
      $('ab-error').textContent = value.includes('/')
        ? t('board.invalid', { error: String(e.message || e).replace(/^invalid setup: /, '') })
        : t('board.bad_notation');
      return false;
    }
    const s = game.state();
    game.free();
    st.options = options;
    st.base = { board: s.board, closed: s.closed, toMove: s.to_move, captured: [s.captured[0], s.captured[1]] };
    return validate();
  }

  const closeTables = offlineTablesControl($('ab-tables'));

  const onResize = () => { if (st.base) show(); };
  window.addEventListener('resize', onResize);
  Promise.resolve().then(() => {
    if (st.closed) return;
    if (!(params.get('position') && open(params.get('position')))) {
      if (!st.base) { st.base = startPosition(); validate(); }
    }
    show();
  }).catch((e) => { $('ab-error').textContent = String(e.message || e); });

  return () => {
    st.closed = true;
    closeTables();
    window.removeEventListener('resize', onResize);
    if (st.worker) st.worker.terminate();
    if (st.game) st.game.free();
  };
}
