// Post-game analysis on the game page: "Analyse this game" (on the result
// and in replay), a progress bar while the server's engine works, the
// evaluation graph, the marks in the list of moves, each side's totals,
// the best move of the position shown marked on the board, its line step
// by step, and "play from here". The analysis comes from
// POST/GET /api/games/{id}/analysis (docs/API.md): a quick pass whose
// steps show at once, then a deeper one whose steps replace them; the page
// says how long and how deep the engine searched. Once done, "Learn from
// your mistakes" opens the positions where the player's move lost the
// result as exercises (/g/<id>/learn, pages/mistakes.js), when there are any.

import { t } from '../i18n.js';
import { api, seats } from '../api.js';
import { errorText, sideName, toast, toastError } from '../ui.js';
import { html, setHtml } from '../html.js';
import { navigate } from '../nav.js';
import { isLocalId } from '../local/backend.js';
import { buildFrames, isOver } from './state.js';
import { drawGraph, formatEval } from './graph.js';
import { exercises, playerSides } from './mistakes.js';

const POLL_MS = 400;

/** The visible symbol of each mark (its word is always given to screen readers and as a title). */
export const MARK_SYMBOL = { best: '✓', inaccuracy: '?!', mistake: '?', blunder: '??' };
const MARKS = ['best', 'inaccuracy', 'mistake', 'blunder'];

/** Sets up the analysis of the game page `G`; returns its teardown. */
export function initAnalysis(G) {
  const A = {
    view: null, line: null, closed: false, timer: null, starting: false, asked: false,
    // The steps of `view` that are of its pass under way (or last): the next poll asks from there.
    current: 0,
  };
  G.A = A;
  return () => { A.closed = true; clearTimeout(A.timer); };
}

/**
 * Asks once for the analysis stored or running, when the page first could
 * show one (see `drawAnalysis`): a game going on, online or not yet
 * replayed, has none to ask for, and a game on this device is analysed
 * only as a copy on the server.
 */
function load(G) {
  const { A } = G;
  if (A.asked || isLocalId(G.S.id)) return;
  A.asked = true;
  api('GET', `/api/games/${G.S.id}/analysis`).then((v) => {
    // No content (null): the game was never analysed.
    if (A.closed || !v) return;
    A.view = v;
    A.current = v.done;
    if (v.status !== 'done') poll(G);
    G.render();
  }, () => {});
}

/** Whether the analysis is of the game as it stands. */
const fresh = (A, v) => !!A.view && A.view.epoch === v.epoch && A.view.seq === v.seq;

/**
 * Asks for the steps not received yet until the analysis is done: those
 * from the first not of the pass under way (a deeper pass replaces the
 * steps of the quick one as it goes).
 */
function poll(G) {
  const { A } = G;
  clearTimeout(A.timer);
  A.timer = setTimeout(async () => {
    if (A.closed || !A.view) return;
    try {
      const from = Math.min(A.current, A.view.steps.length);
      const got = await api('GET', `/api/games/${G.S.id}/analysis?from=${from}`);
      if (A.closed) return;
      if (got.id !== A.view.id && got.from > 0) {
        // Another run (the game changed): all of its steps, next time.
        A.view = { ...got, status: 'running', from: 0, steps: [] };
        A.current = 0;
      } else {
        const steps = (got.from > 0 ? A.view.steps.slice(0, got.from) : []).concat(got.steps);
        // Steps before `from` are of an earlier pass if the pass changed: all asked again next time.
        const stale = got.from > 0 && (got.pass ?? 1) !== (A.view.pass ?? 1);
        A.current = stale ? 0 : got.done;
        A.view = { ...got, from: 0, steps, ...(stale ? { status: 'running' } : {}) };
      }
      G.render();
    } catch (err) {
      if (err.status === 404) return;
    }
    if (A.view.status !== 'done') poll(G);
  }, POLL_MS);
}

/** The record of the game shown (from this device for a game on it). */
async function recordText(S) {
  if (isLocalId(S.id)) return api('GET', `/api/games/${S.id}/record`);
  const res = await fetch(`/api/games/${S.id}/record`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

/**
 * A game on this device is analysed by the server's engine: its record is
 * imported (a copy on the server), the analysis started there, and the page
 * goes to the copy, where the analysis shows as it comes.
 */
async function analyseOnServer(G) {
  const r = await api('POST', '/api/games/import', { record: await recordText(G.S) });
  seats.set(r.id, { token: r.token, seat: r.seat });
  await api('POST', `/api/games/${r.id}/analysis`, {});
  navigate(`/g/${r.id}`);
}

async function start(G) {
  const { A } = G;
  if (A.starting) return;
  A.starting = true;
  if (isLocalId(G.S.id)) {
    try {
      await analyseOnServer(G);
    } catch (err) {
      toast(t('an.failed', { error: errorText(err) }), 'error');
    } finally {
      A.starting = false;
    }
    return;
  }
  try {
    A.view = await api('POST', `/api/games/${G.S.id}/analysis`, {});
    A.current = A.view.done;
    if (A.view.status !== 'done') poll(G);
  } catch (err) {
    toast(t('an.failed', { error: errorText(err) }), 'error');
  } finally {
    A.starting = false;
  }
  G.render();
}

/** The frame shown: the replay step, or the last one. */
const shownFrame = (S) => (S.frame === null ? S.view.history.length : S.frame);

/** Shows frame `k` (the live position for the last). */
function jump(G, k) {
  const { S } = G;
  G.A.line = null;
  S.frame = k >= S.view.history.length ? null : k;
  G.render();
}

/** The arrow of direction `dir` (`L` or `R`). */
const arrowOf = (dir) => (dir === 'R' ? '↻' : dir === 'L' ? '↺' : '');

const markLabel = (m) => t(`mark.${m}`);

/** "depth 7" or "depth 5–9" for the depths `ds`. */
const depthRange = (ds) => {
  const lo = Math.min(...ds);
  const hi = Math.max(...ds);
  return lo === hi ? `${lo}` : `${lo}–${hi}`;
};

/**
 * How long and how deep the engine searched: for each engine time of the
 * steps received (a quick pass, then a deeper one), the range of depths
 * its search completed.
 */
function searchText(view) {
  const byTime = new Map();
  for (const p of view.steps) {
    if (!p.to_move) continue;
    const ms = p.movetime_ms || view.movetime_ms;
    if (!byTime.has(ms)) byTime.set(ms, []);
    if (p.depth) byTime.get(ms).push(p.depth);
  }
  const parts = [...byTime.keys()].sort((a, b) => a - b).map((ms) => {
    const ds = byTime.get(ms);
    return ds.length ? t('an.depth', { ms, depth: depthRange(ds) }) : `${ms} ms`;
  });
  if (!parts.length) return '';
  return html`<p class="muted an-search" id="an-search">${t('an.search', { passes: parts.join('; ') })}</p>`;
}

/** Draws the analysis part of the page; called after every render of the game page. */
export function drawAnalysis(G) {
  const { S, A } = G;
  const v = S.view;
  const box = G.$('analysis');
  if (!v || !box || !A) return;
  const focusedId = box.contains(document.activeElement) ? document.activeElement.id : null;
  const ok = fresh(A, v);
  const view = ok ? A.view : null;
  // Offered on the result, and in the replay of any game but an online one
  // still being played (the server analyses those once they are over).
  const analysable = v.seq > 0 && (isOver(v) || (S.frame !== null && v.mode !== 'online'));
  if (analysable) load(G);
  const offer = !view && analysable;
  const frames = buildFrames(v);
  const k = Math.min(shownFrame(S), frames.length - 1);
  const at = view ? view.steps[k] : null;
  if (!view && !offer) {
    box.replaceChildren();
    drawMarks(G, null);
    return;
  }
  let inner;
  if (!view) {
    inner = html`<button type="button" id="an-start" class="primary"${A.starting ? html` disabled` : ''}>${t('an.analyse')}</button>${
      A.view ? html`<p class="muted">${t('an.stale')}</p>` : ''}`;
  } else {
    const label = (view.pass ?? 1) > 1 ? 'an.deeper' : 'an.progress';
    inner = html`${view.status !== 'done' ? html`<p class="an-progress"><label for="an-progress">${t(label, { done: view.done, total: view.total })}</label>
        <progress id="an-progress" max="${view.total}" value="${view.done}"></progress></p>` : ''}${searchText(view)}${learnButton(G, view)}<div id="an-graph" class="an-graph"></div>
      <p class="muted an-legend">${t('an.legend')}</p>${positionInfo(G, view, at, k, frames)}${view.summary ? summaryTable(view) : ''}`;
  }
  setHtml(box, html`<section class="analysis card" aria-labelledby="an-title"><h2 id="an-title" tabindex="-1">${t('an.title')}</h2>${inner}</section>`);
  const on = (id, f) => { const b = G.$(id); if (b) b.addEventListener('click', f); };
  on('an-start', () => start(G));
  on('an-learn', () => navigate(`/g/${S.id}/learn`));
  on('an-line', () => { A.line = { k, i: 0 }; G.render(); });
  on('an-line-prev', () => { if (A.line.i > 0) { A.line.i -= 1; G.render(); } });
  on('an-line-next', () => { if (A.line.i < at.line.length - 1) { A.line.i += 1; G.render(); } });
  on('an-line-close', () => { A.line = null; G.render(); });
  on('an-play-engine', () => playFrom(G, k, 'engine'));
  on('an-play-hotseat', () => playFrom(G, k, 'hotseat'));
  if (view) drawGraph(G.$('an-graph'), view.steps, view.total, k, (j) => jump(G, j));
  if (focusedId && G.$(focusedId)) G.$(focusedId).focus();
  drawMarks(G, view);
  drawBoard(G, view, at, k, frames);
}

/**
 * "Learn from your mistakes", once the analysis is done, when the player's
 * moves lost the result somewhere (game/mistakes.js): with how many.
 */
function learnButton(G, view) {
  if (view.status !== 'done') return '';
  const n = exercises(view, playerSides(G.S.view, G.S.seat)).length;
  if (!n) return '';
  return html`<p class="an-learn"><button type="button" id="an-learn" class="primary">${t('an.learn', { n })}</button></p>`;
}

/** The evaluation, the move that led here with its mark, the best move, the line. */
function positionInfo(G, view, at, k, frames) {
  if (!at) return html`<p class="muted">${t('an.graph_pending', { seq: k })}</p>`;
  const searched = at.depth ? `, ${t('an.search_here', { depth: at.depth, ms: at.movetime_ms || view.movetime_ms })}` : '';
  const evalLine = html`<p class="an-eval">${t('an.eval', { eval: formatEval(at.eval, false) })}
    <span class="an-exact">(${at.exact ? t('an.exact') : t('an.estimate')}${searched})</span></p>`;
  const m = at.played;
  let played = '';
  if (m) {
    // A blunder by fewer seeds than the variant's threshold: the move changed the result.
    const worse = m.mark === 'blunder' && view.thresholds && m.loss < view.thresholds.blunder ? `, ${t('an.worse_result')}` : '';
    const lost = m.mark === 'best' ? '' : ` — ${t('an.lost', { n: m.loss, best: m.best, score: formatEval(m.best_score, false) })}${worse}`;
    played = html`<p class="an-played">${t('an.played', { seq: k, side: sideName(m.side), move: m.token })}:
      <span class="mark m-${m.mark}">${MARK_SYMBOL[m.mark]} ${markLabel(m.mark)}</span>${lost}</p>`;
  }
  const A = G.A;
  let rest;
  if (A.line && A.line.k === k && at.line.length) {
    const s = at.line[A.line.i];
    rest = html`<div class="an-line" role="group" aria-label="${t('an.line')}">
      <p id="an-line-text" aria-live="polite">${t('an.line_step', { i: A.line.i + 1, n: at.line.length, side: sideName(s.side), move: s.token })}</p>
      <button type="button" id="an-line-prev" aria-label="${t('an.line_prev')}"${A.line.i === 0 ? html` disabled` : ''}>◀</button>
      <button type="button" id="an-line-next" aria-label="${t('an.line_next')}"${A.line.i >= at.line.length - 1 ? html` disabled` : ''}>▶</button>
      <button type="button" id="an-line-close">${t('an.line_close')}</button></div>`;
  } else if (at.best) {
    const arrow = arrowOf(at.best_dir);
    const toMove = frames[k].toMove;
    rest = html`<p class="an-best">${t('an.best', { side: sideName(at.to_move), move: at.best })}
      <span aria-hidden="true">${arrow}</span> · ${t('an.pv')}: ${at.pv.join(' ')}</p>
      <div class="an-actions"><button type="button" id="an-line">${t('an.line')}</button>${toMove ? html`<button type="button" id="an-play-engine">${t('an.play_engine')}</button>
        <button type="button" id="an-play-hotseat">${t('an.play_hotseat')}</button>` : ''}</div>`;
  } else {
    rest = html`<p class="muted">${t('an.no_best')}</p>`;
  }
  return html`${evalLine}${played}${rest}`;
}

/** Each side's marks: on a narrow screen the headers show the symbols, their words for screen readers and as titles. */
function summaryTable(view) {
  const head = MARKS.map((m) => html`<th scope="col" title="${markLabel(m)}"><span aria-hidden="true">${MARK_SYMBOL[m]}</span> <span class="an-word">${markLabel(m)}</span></th>`);
  const row = (side) => {
    const s = view.summary[side];
    return html`<tr><th scope="row">${sideName(side)}</th><td>${s.average_loss.toFixed(2)}</td>${MARKS.map((m) => html`<td>${s.counts[m] ?? 0}</td>`)}</tr>`;
  };
  return html`<div class="an-summary" tabindex="0" role="region" aria-label="${t('an.summary')}"><table><caption>${t('an.summary')}</caption>
    <thead><tr><th scope="col">${t('an.side')}</th><th scope="col" title="${t('an.avg_loss')}"><span class="an-long">${t('an.avg_loss')}</span><span class="an-short" aria-hidden="true">${t('an.avg_short')}</span></th>${head}</tr></thead>
    <tbody>${row('south')}${row('north')}</tbody></table></div>`;
}

/** The mark of each analysed move in the list of moves: a symbol, and its word for screen readers. */
function drawMarks(G, view) {
  const list = G.$('moves');
  if (!list) return;
  list.classList.toggle('analysed', !!view);
  for (const b of list.querySelectorAll('button[data-frame]')) {
    b.querySelector('.an-mark')?.remove();
    const p = view && view.steps[Number(b.dataset.frame)];
    const m = p && p.played;
    if (!m) continue;
    const span = document.createElement('span');
    span.className = `an-mark mark m-${m.mark}`;
    span.title = markLabel(m.mark);
    setHtml(span, html` <span aria-hidden="true">${MARK_SYMBOL[m.mark]}</span><span class="sr-only">, ${markLabel(m.mark)}</span>`);
    b.appendChild(span);
  }
}

/** The best move of the position shown, marked on the board; or the line's position. */
function drawBoard(G, view, at, k, frames) {
  const { S, A } = G;
  if (!S.board || S.animating) return;
  S.board.clearMarks('best-move');
  for (const a of S.board.svg.querySelectorAll('.best-arrow')) a.remove();
  if (!view || !at) return;
  if (A.line && A.line.k === k && at.line[A.line.i]) {
    const s = at.line[A.line.i];
    S.board.render({ board: s.board, closed: frames[k].closed, captured: s.captured, legal: new Set(), last: { from: s.holes || [], captured: [] } });
    return;
  }
  if (!at.best || !at.to_move) return;
  const holes = at.best_holes || [];
  const arrow = arrowOf(at.best_dir);
  for (const i of holes) {
    const h = S.board.holes[i];
    if (!h) continue;
    S.board.mark(i, 'best-move', true);
    h.g.setAttribute('aria-label', `${h.g.getAttribute('aria-label')}, ${t('an.best_here')}`);
    const text = document.createElementNS('http://www.w3.org/2000/svg', 'text');
    text.setAttribute('class', 'best-arrow');
    text.setAttribute('text-anchor', 'middle');
    text.setAttribute('x', '-26');
    text.setAttribute('y', '-22');
    text.setAttribute('aria-hidden', 'true');
    text.textContent = arrow;
    h.g.querySelector('.hole-body').appendChild(text);
  }
}

/**
 * Starts a new game from frame `k`: the record of the game up to it,
 * imported (POST /api/games/import) as an engine game (the player takes the
 * side to move) or hot-seat.
 */
async function playFrom(G, k, mode) {
  const { S } = G;
  const v = S.view;
  try {
    const text = await recordText(S);
    const skip = /^\[(Result|Score|Rounds|Termination|Annotator|South|North|SouthReview|NorthReview) /;
    const header = [];
    for (const line of text.split('\n')) {
      if (!line.startsWith('[')) break;
      if (!skip.test(line)) header.push(line);
    }
    let body = v.match ? '[Round "1"]\n' : '';
    let round = 1;
    for (const s of v.history.slice(0, k)) {
      if (s.kind === 'round') { round += 1; body += `\n[Round "${round}"]\n`; }
      else if (s.kind === 'move' || s.kind === 'concede') body += `${s.token} `;
    }
    const frames = buildFrames(v);
    const side = frames[k].toMove || 'south';
    const level = v.mode === 'engine' ? v.level : 3;
    const r = await api('POST', '/api/games/import', { record: `${header.join('\n')}\n\n${body}\n`, mode, level, side });
    seats.set(r.id, { token: r.token, seat: r.seat });
    navigate(`/g/${r.id}`);
  } catch (err) {
    toastError(err);
  }
}
