// Hoyito in the browser: new game, game list, rules, and the game page
// (board, sowing animation, live updates over a WebSocket that reconnects).

import { t, setLang, getLang, translatePage } from './i18n.js';
import { renderMarkdown } from './markdown.js';
import { Board } from './board.js';

const app = document.getElementById('app');
let teardown = null;

// ----- helpers -------------------------------------------------------------

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

let toastTimer = null;
function toast(msg, kind = 'info') {
  const el = document.getElementById('toast');
  el.textContent = msg;
  el.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = ''; }, 3500);
}

class ApiError extends Error {
  constructor(body, status) {
    super(body?.error || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code;
  }
}

async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!res.ok) throw new ApiError(json, res.status);
  return json;
}

const seats = {
  get(id) {
    try { return JSON.parse(localStorage.getItem(`hoyito.seat.${id}`) || 'null'); } catch { return null; }
  },
  set(id, v) { localStorage.setItem(`hoyito.seat.${id}`, JSON.stringify(v)); },
};

const sideName = (s) => t(`side.${s}`);

// ----- routing -------------------------------------------------------------

function navigate(path, replace = false) {
  if (replace) history.replaceState(null, '', path); else history.pushState(null, '', path);
  route();
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-nav]');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', route);

for (const b of document.querySelectorAll('[data-lang]')) {
  b.addEventListener('click', () => { setLang(b.dataset.lang); route(); });
}

function route() {
  if (teardown) teardown();
  teardown = null;
  translatePage();
  for (const b of document.querySelectorAll('[data-lang]')) b.setAttribute('aria-pressed', String(b.dataset.lang === getLang()));
  const p = location.pathname;
  for (const a of document.querySelectorAll('header nav a')) {
    const href = a.getAttribute('href');
    if (href === p || (href === '/' && p === '/new')) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  const m = /^\/g\/([A-Za-z0-9]+)\/?$/.exec(p);
  if (m) gameView(m[1]);
  else if (p === '/games') gamesView();
  else if (p === '/rules') rulesView();
  else newGameView();
}

// ----- new game ------------------------------------------------------------

function newGameView() {
  document.title = `Hoyito — ${t('new.title')}`;
  const opt = (v, label, sel) => `<option value="${v}"${sel ? ' selected' : ''}>${esc(label)}</option>`;
  const holes = [4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => opt(n, `2 × ${n}`, n === 6)).join('');
  const levels = [...Array(10)].map((_, i) => opt(i + 1, String(i + 1), i + 1 === 3)).join('');
  app.innerHTML = `
  <section class="card narrow">
    <h1>${t('new.title')}</h1>
    <form id="new-game">
      <fieldset class="modes"><legend>${t('new.mode')}</legend>
        <label><input type="radio" name="mode" value="engine" checked> ${t('mode.engine')}</label>
        <label><input type="radio" name="mode" value="hotseat"> ${t('mode.hotseat')}</label>
        <label><input type="radio" name="mode" value="online"> ${t('mode.online')}</label>
      </fieldset>
      <div class="grid">
        <label>${t('new.variant')}<select name="variant">
          ${opt('I', t('variant.I'))}${opt('II', t('variant.II'), true)}${opt('III', t('variant.III'))}</select></label>
        <label>${t('new.holes')}<select name="holes">${holes}</select></label>
        <label class="for-engine">${t('new.level')}<select name="level">${levels}</select></label>
        <label class="for-seat">${t('new.side')}<select name="side">${opt('south', sideName('south'), true)}${opt('north', sideName('north'))}</select></label>
      </div>
      <label class="check"><input type="checkbox" name="match"> ${t('new.match')}</label>
      <details><summary>${t('new.options')}</summary>
        <div class="grid">
          <label>${t('new.seeds')}<input type="number" name="seeds" min="1" max="6" value="4"></label>
          <label>${t('new.direction')}<select name="direction">
            ${opt('fixed', t('dir.fixed'), true)}${opt('per_player', t('dir.per_player'))}${opt('per_move', t('dir.per_move'))}</select></label>
          <label>${t('new.repetition')}<select name="repetition">${opt('even', t('rep.even'), true)}${opt('own_row', t('rep.own_row'))}</select></label>
          <label>${t('new.capture_side')}<select name="capture_side">${opt('any', t('cap.any'), true)}${opt('opponent', t('cap.opponent'))}</select></label>
        </div>
        <label class="check"><input type="checkbox" name="two_hole_opening"> ${t('new.opening')}</label>
        <label class="check"><input type="checkbox" name="skip_origin"> ${t('new.skip_origin')}</label>
      </details>
      <button type="submit" class="primary" id="start">${t('new.start')}</button>
    </form>
  </section>
  <section class="card narrow">
    <h2>${t('new.upload')}</h2>
    <p class="muted">${t('new.upload_hint')}</p>
    <input type="file" id="upload" accept=".txt,.hoy,text/plain" aria-label="${esc(t('new.upload'))}">
  </section>`;
  const form = document.getElementById('new-game');
  const sync = () => {
    const mode = form.mode.value;
    form.querySelector('.for-engine').hidden = mode !== 'engine';
    form.querySelector('.for-seat').hidden = mode === 'hotseat';
  };
  form.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form;
    const body = {
      mode: f.mode.value,
      match: f.match.checked,
      level: Number(f.level.value),
      side: f.side.value,
      rules: {
        variant: f.variant.value, holes: Number(f.holes.value), seeds: Number(f.seeds.value),
        direction: f.direction.value, repetition: f.repetition.value, capture_side: f.capture_side.value,
        two_hole_opening: f.two_hole_opening.checked, skip_origin: f.skip_origin.checked,
      },
    };
    try {
      const r = await api('POST', '/api/games', body);
      seats.set(r.id, { token: r.token, seat: r.seat, invite: r.invite || null });
      navigate(`/g/${r.id}`);
    } catch (err) {
      toast(t('error', { error: err.message }), 'error');
    }
  });
  document.getElementById('upload').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      const record = await file.text();
      const r = await api('POST', '/api/games/import', { record });
      seats.set(r.id, { token: r.token, seat: r.seat });
      navigate(`/g/${r.id}`);
    } catch (err) {
      toast(t('error', { error: err.message }), 'error');
    }
  });
}

// ----- game list -----------------------------------------------------------

async function gamesView() {
  document.title = `Hoyito — ${t('games.title')}`;
  app.innerHTML = `<section class="card"><h1>${t('games.title')}</h1><div id="list">…</div></section>`;
  try {
    const { games } = await api('GET', '/api/games?limit=100');
    const list = document.getElementById('list');
    if (!list) return;
    if (!games.length) { list.innerHTML = `<p class="muted">${t('games.none')}</p>`; return; }
    list.innerHTML = `<table class="games"><tbody>${games.map((g) => `
      <tr><td><a href="/g/${esc(g.id)}" data-nav>${esc(g.id)}</a></td>
      <td>${esc(t(`mode.${g.mode}`))}</td>
      <td>Hoyito ${esc(g.rules.variant)} 2×${g.rules.holes}${g.match ? ' · match' : ''}</td>
      <td>${esc(t(`status.${g.status}`))}${g.result ? ` · ${esc(g.result === 'draw' ? t('game.draw') : t('game.wins', { name: sideName(g.result) }))}` : ''}</td>
      <td>${g.score[0]}–${g.score[1]}</td>
      <td class="muted">${new Date(g.updated_ms).toLocaleString(getLang())}</td></tr>`).join('')}</tbody></table>`;
  } catch (err) {
    toast(t('error', { error: err.message }), 'error');
  }
}

// ----- rules ---------------------------------------------------------------

async function rulesView() {
  document.title = `Hoyito — ${t('rules.title')}`;
  app.innerHTML = '<article class="card rules" id="rules">…</article>';
  const text = await (await fetch('/rules.md')).text();
  const el = document.getElementById('rules');
  if (el) el.innerHTML = renderMarkdown(text);
}

// ----- the game page -------------------------------------------------------

const SPEEDS = {
  slow: { seed: 420, lap: 650, cap: 800 },
  normal: { seed: 160, lap: 320, cap: 450 },
  fast: { seed: 45, lap: 110, cap: 160 },
  instant: null,
};

function gameView(id) {
  const params = new URLSearchParams(location.search);
  const S = {
    id, view: null, latest: null, seat: null, token: null, board: null, queue: [], pumping: false,
    animating: false, skip: false, wake: null, dir: 'L', first: null, frame: null, ws: null,
    closed: false, backoff: 0, timer: null, ping: null, hint: null,
    speed: localStorage.getItem('hoyito.speed') || 'normal',
  };
  document.title = `Hoyito — ${id}`;
  app.innerHTML = `
  <section class="game" aria-label="game">
    <div class="game-main">
      <div class="player upper" id="p-top"></div>
      <div id="board-wrap" class="board-wrap"></div>
      <div class="player lower" id="p-bottom"></div>
      <p id="status" class="status" aria-live="polite"></p>
      <p id="hud" class="hud" aria-live="off"></p>
      <div id="invite"></div>
      <div class="controls">
        <div id="dir" class="dir" role="group" aria-label="${esc(t('game.direction'))}" hidden>
          <button type="button" data-dir="L">${t('dir.L')}</button>
          <button type="button" data-dir="R">${t('dir.R')}</button>
        </div>
        <button type="button" id="undo">${t('game.undo')}</button>
        <button type="button" id="hint">${t('game.hint')}</button>
        <label class="speed">${t('game.speed')}
          <select id="speed">${Object.keys(SPEEDS).map((k) => `<option value="${k}"${k === S.speed ? ' selected' : ''}>${t(`speed.${k}`)}</option>`).join('')}</select></label>
        <button type="button" id="skip">${t('game.skip')}</button>
        <a id="download" class="button" href="/api/games/${esc(id)}/record" download>${t('game.download')}</a>
      </div>
      <div id="summary"></div>
      <p class="keys muted">${t('game.keys')}</p>
      <p id="conn" class="conn" hidden>${t('game.reconnecting')}</p>
    </div>
    <aside class="moves-panel">
      <h2>${t('game.moves')}</h2>
      <div class="stepper">
        <button type="button" id="first" title="${esc(t('game.first'))}" aria-label="${esc(t('game.first'))}">«</button>
        <button type="button" id="prev" title="${esc(t('game.prev'))}" aria-label="${esc(t('game.prev'))}">◀</button>
        <button type="button" id="next" title="${esc(t('game.next'))}" aria-label="${esc(t('game.next'))}">▶</button>
        <button type="button" id="live" title="${esc(t('game.live'))}">${t('game.live')}</button>
      </div>
      <p id="viewing" class="muted" hidden></p>
      <ol id="moves" class="moves"></ol>
    </aside>
  </section>`;
  const $ = (sel) => document.getElementById(sel);

  const stored = seats.get(id);
  if (stored) { S.token = stored.token; S.seat = stored.seat; }

  // --- seats and turns
  const holds = (side) => S.seat === 'both' || S.seat === side;
  const n = () => S.view.rules.holes;
  const rowStart = (side) => (side === 'south' ? 0 : n());
  const parseToken = (tok) => {
    const m = /^(\d+)(?:\+(\d+))?([LR])?$/.exec(tok);
    return m && { a: Number(m[1]), b: m[2] ? Number(m[2]) : null, dir: m[3] || null };
  };
  const canMove = () => {
    const v = S.view;
    return !!v && !v.state.over && holds(v.state.to_move) && !S.animating && S.frame === null && !v.thinking && !S.sending;
  };
  // Legal holes (board indices) for the next click.
  const legalHoles = () => {
    const v = S.view;
    const out = new Set();
    if (!canMove()) return out;
    const base = rowStart(v.state.to_move);
    for (const tok of v.legal) {
      const p = parseToken(tok);
      if (!p || (v.direction_choice && p.dir !== S.dir)) continue;
      if (S.first === null) out.add(base + p.a - 1);
      else if (p.a === S.first && p.b !== null) out.add(base + p.b - 1);
    }
    return out;
  };
  const playerName = (side) => {
    const v = S.view;
    if (v.mode === 'engine') return v.engine_side === side ? t('game.engine', { level: v.level }) : t('game.you');
    if (v.mode === 'online' && S.seat === side) return `${t('game.you')} (${sideName(side)})`;
    if (v.mode === 'online' && S.seat && S.seat !== 'both') return `${t('game.opponent')} (${sideName(side)})`;
    return sideName(side);
  };

  // --- drawing
  function ensureBoard() {
    if (!S.board || S.board.n !== n()) {
      S.board = new Board($('board-wrap'), n(), onHole);
    }
    S.board.setFlipped(S.seat === 'north');
  }

  function drawPlayers(captured, toMove) {
    const v = S.view;
    const top = S.board.flipped ? 'south' : 'north';
    const bottom = top === 'south' ? 'north' : 'south';
    for (const [slot, side] of [['p-top', top], ['p-bottom', bottom]]) {
      const k = side === 'south' ? 0 : 1;
      const reserve = v.state.reserve[k];
      $(slot).className = `player ${slot === 'p-top' ? 'upper' : 'lower'}${toMove === side ? ' to-move' : ''}`;
      $(slot).innerHTML = `<span class="name">${esc(playerName(side))}</span>
        <span class="cap" data-side="${side}"><strong>${captured[k]}</strong> ${t('game.captured')}</span>
        ${reserve ? `<span class="muted">+${reserve} ${t('game.reserve')}</span>` : ''}`;
    }
  }

  function renderAll() {
    const v = S.view;
    if (!v) return;
    ensureBoard();
    const frames = buildFrames();
    if (S.frame !== null && S.frame >= frames.length - 1) S.frame = null;
    if (S.frame !== null) {
      const f = frames[S.frame];
      S.board.render({ board: f.board, closed: f.closed, captured: f.captured, legal: new Set() });
      drawPlayers(f.captured, f.toMove);
      $('viewing').hidden = false;
      $('viewing').textContent = t('game.viewing', { seq: S.frame, total: frames.length - 1 });
    } else {
      const legal = legalHoles();
      S.board.render({ board: v.state.board, closed: v.state.closed, captured: v.state.captured, legal, focusable: true });
      S.board.clearMarks('selected');
      if (S.first !== null) S.board.mark(rowStart(v.state.to_move) + S.first - 1, 'selected', true);
      S.board.clearMarks('hinted');
      if (S.hint !== null) S.board.mark(S.hint, 'hinted', true);
      drawPlayers(v.state.captured, v.state.over ? null : v.state.to_move);
      $('viewing').hidden = true;
    }
    drawStatus();
    drawControls();
    drawMoves(frames);
    drawSummary();
    drawInvite();
  }

  function drawStatus() {
    const v = S.view;
    let s;
    if (v.state.over) s = t('game.over');
    else if (v.thinking) s = t('game.thinking');
    else if (holds(v.state.to_move) && v.mode !== 'hotseat') s = t('game.your_turn');
    else s = t('game.turn', { name: playerName(v.state.to_move) });
    if (v.match) s = `${t('game.round', { round: v.round })} · ${s}`;
    if (S.first !== null) s += ` — ${t('game.pick_second')}`;
    $('status').textContent = s;
  }

  function drawControls() {
    const v = S.view;
    const mine = S.seat !== null;
    $('undo').hidden = !(mine && v.mode !== 'online');
    $('undo').disabled = v.seq === 0 || !!v.match_result;
    $('hint').hidden = !(mine && v.mode !== 'online');
    $('hint').disabled = !canMove();
    const dir = $('dir');
    dir.hidden = !(v.direction_choice && canMove());
    for (const b of dir.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.dir === S.dir));
    $('skip').disabled = !S.animating;
  }

  function buildFrames() {
    const v = S.view;
    const r0 = v.rounds[0];
    const frames = [{ board: r0.start_board, closed: r0.closed, captured: [0, 0], toMove: r0.starter, label: t('game.start_pos') }];
    for (const s of v.history) {
      const r = v.rounds[s.round - 1];
      frames.push({ board: s.board, closed: r ? r.closed : [], captured: s.captured, toMove: s.to_move, step: s });
    }
    return frames;
  }

  function drawMoves(frames) {
    const ol = $('moves');
    const current = S.frame === null ? frames.length - 1 : S.frame;
    ol.innerHTML = frames.map((f, k) => {
      const s = f.step;
      let label;
      if (!s) label = t('game.start_pos');
      else if (s.kind === 'round') label = `— ${t('game.round', { round: s.round })} —`;
      else label = `${sideName(s.side).charAt(0)} ${esc(s.token)}`;
      return `<li${k === current ? ' class="current" aria-current="step"' : ''}><button type="button" data-frame="${k}">${k ? `${k}. ` : ''}${label}</button></li>`;
    }).join('');
    const cur = ol.querySelector('.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  function drawSummary() {
    const v = S.view;
    const box = $('summary');
    if (!v.state.over && !v.match_result) { box.innerHTML = ''; return; }
    const winner = (w) => (w === 'draw' ? t('game.draw') : t('game.wins', { name: playerName(w) }));
    let html = '';
    if (v.match) {
      html += `<h2>${v.match_result
        ? (v.match_result.winner === 'draw'
          ? t('game.match_draw', { rounds: v.match_result.rounds })
          : t('game.match_over', { name: playerName(v.match_result.winner), rounds: v.match_result.rounds }))
        : t('game.round_over', { round: v.round })}</h2>
        <table class="rounds"><caption>${t('game.rounds')}</caption><thead><tr><th>#</th><th>${sideName('south')}</th><th>${sideName('north')}</th><th></th></tr></thead><tbody>
        ${v.rounds.map((r) => `<tr><td>${r.round}</td><td>${r.score[0]}</td><td>${r.score[1]}</td><td>${r.over ? esc(winner(r.winner)) : '…'}</td></tr>`).join('')}
        </tbody></table>`;
      if (v.can_next_round && S.seat) html += `<button type="button" class="primary" id="next-round">${t('game.next_round')}</button>`;
    } else {
      const st = v.state;
      html += `<h2>${t('game.over')}: ${esc(winner(st.winner))}</h2>
        <p>${t('game.score')}: ${sideName('south')} ${st.captured[0]} – ${st.captured[1]} ${sideName('north')}
        · ${t('game.reason')}: ${esc(t(`reason.${st.end_reason}`))}</p>`;
    }
    box.innerHTML = `<div class="summary card" role="status">${html}</div>`;
    const nr = $('next-round');
    if (nr) nr.addEventListener('click', nextRound);
  }

  function drawInvite() {
    const v = S.view;
    const box = $('invite');
    const st = seats.get(id);
    if (v.mode === 'online' && v.status === 'waiting' && st && st.invite) {
      const url = new URL(st.invite, location.origin).href;
      box.innerHTML = `<div class="invite card"><p>${t('game.invite')}</p>
        <div class="row"><input id="invite-url" readonly value="${esc(url)}" aria-label="${esc(t('game.invite'))}">
        <button type="button" id="copy">${t('game.copy')}</button></div><p class="muted">${t('game.waiting')}</p></div>`;
      $('copy').addEventListener('click', async () => {
        $('invite-url').select();
        try { await navigator.clipboard.writeText(url); } catch { document.execCommand('copy'); }
        toast(t('game.copied'));
      });
    } else if (!S.seat) {
      box.innerHTML = `<p class="muted watching">${t('game.watching')}</p>`;
    } else {
      box.innerHTML = '';
    }
  }

  // --- animation
  const wait = (ms) => new Promise((resolve) => {
    if (S.skip || !ms) { resolve(); return; }
    const timer = setTimeout(() => { S.wake = null; resolve(); }, ms);
    S.wake = () => { clearTimeout(timer); S.wake = null; resolve(); };
  });

  async function animate(ev) {
    const speed = SPEEDS[S.speed];
    if (!speed || S.skip) return;
    if (ev.trace.truncated) { toast(t('game.long_sowing', { laps: ev.trace.laps })); return; }
    ensureBoard();
    const board = ev.board_before.slice();
    const cap = ev.captured_before.slice();
    const mover = ev.side === 'south' ? 0 : 1;
    const closed = S.view.state.closed;
    const draw = () => S.board.render({ board, closed, captured: cap, legal: new Set() });
    let lap = 0;
    let hand = 0;
    S.board.clearMarks('hinted');
    S.board.clearMarks('selected');
    draw();
    for (const e of ev.trace.events) {
      if (S.skip) break;
      const [kind, hole, count] = e;
      if (kind === 'l') {
        lap += 1;
        board[hole] = 0;
        hand = count;
        $('hud').textContent = `${t('game.lap', { lap })} · ${hand}`;
        S.board.clearMarks('origin');
        S.board.mark(hole, 'origin', true);
        draw();
        await wait(speed.lap);
      } else if (kind === 's') {
        board[hole] += 1;
        hand -= 1;
        $('hud').textContent = `${t('game.lap', { lap })} · ${hand}`;
        draw();
        S.board.flash(hole, 'sown', Math.max(speed.seed, 120));
        await wait(speed.seed);
      } else if (kind === 'c') {
        board[hole] -= count;
        cap[mover] += count;
        S.board.flash(hole, 'capture', speed.cap + 200);
        draw();
        await wait(speed.cap);
      }
    }
    S.board.clearMarks('origin');
    $('hud').textContent = '';
  }

  async function pump() {
    if (S.pumping) return;
    S.pumping = true;
    while (S.queue.length) {
      const item = S.queue.shift();
      if (item.ev && S.view) {
        S.animating = true;
        S.first = null;
        S.hint = null;
        drawControls();
        await animate(item.ev);
        S.animating = false;
      }
      S.view = item.game;
      S.first = null;
      renderAll();
      if (item.ev) announce(item.ev);
    }
    S.skip = false;
    S.pumping = false;
  }

  function announce(ev) {
    const v = S.view;
    if (ev.passed && !v.state.over) toast(t('game.passes', { name: playerName(ev.extra_turn ? (ev.side === 'south' ? 'south' : 'north') : ev.side === 'south' ? 'north' : 'south') }));
    else if (ev.extra_turn && !v.state.over) toast(t('game.extra', { name: playerName(ev.side) }));
  }

  // Accepts a game view (and the move that led to it, if any), animating
  // moves in order and dropping anything older than what is already shown.
  function accept(game, ev) {
    const cur = S.latest;
    if (cur && game.epoch < cur.epoch) return;
    if (cur && game.epoch === cur.epoch && game.seq < cur.seq) return;
    if (cur && game.epoch === cur.epoch && game.seq === cur.seq && ev) return; // a move already seen
    if (ev && cur && game.epoch === cur.epoch && ev.seq === cur.seq + 1) {
      S.latest = game;
      S.queue.push({ ev, game });
      pump();
      return;
    }
    const same = cur && game.epoch === cur.epoch && game.seq === cur.seq;
    if (!same) {
      // A jump (undo, a reconnect after missed moves): stop animating and redraw.
      S.queue.length = 0;
      if (S.animating) { S.skip = true; if (S.wake) S.wake(); }
    }
    S.latest = game;
    S.queue.push({ ev: null, game });
    pump();
  }

  // --- actions
  function illegal(i, key = 'game.illegal') {
    if (i !== null && S.board) S.board.flash(i, 'refused', 500);
    toast(t(key), 'error');
  }

  async function send(token) {
    S.sending = true;
    renderAll();
    try {
      const r = await api('POST', `/api/games/${id}/moves`, { move: token, seq: S.view.seq }, S.token);
      accept(r.game, r.move);
    } catch (err) {
      toast(t('error', { error: err.message }), 'error');
    } finally {
      S.sending = false;
      if (!S.animating) renderAll();
    }
  }

  function onHole(i) {
    const v = S.view;
    if (!v) return;
    if (S.frame !== null) { S.frame = null; renderAll(); return; }
    if (S.animating) { skip(); return; }
    if (!canMove()) { illegal(i, v.state.over || !S.seat || holds(v.state.to_move) ? 'game.illegal' : 'game.not_your_turn'); return; }
    if (!legalHoles().has(i)) { illegal(i); return; }
    const k = i - rowStart(v.state.to_move) + 1;
    const suffix = v.direction_choice ? S.dir : '';
    if (v.opening_pair) {
      if (S.first === null) { S.first = k; renderAll(); S.board.focusHole(i); return; }
      const tok = `${S.first}+${k}${suffix}`;
      S.first = null;
      send(tok);
      return;
    }
    send(`${k}${suffix}`);
  }

  function skip() {
    if (S.animating) { S.skip = true; if (S.wake) S.wake(); }
  }

  async function undo() {
    try {
      const g = await api('POST', `/api/games/${id}/undo`, undefined, S.token);
      S.frame = null;
      accept(g, null);
    } catch (err) { toast(t('error', { error: err.message }), 'error'); }
  }

  async function hint() {
    try {
      const h = await api('POST', `/api/games/${id}/hint`, undefined, S.token);
      const p = parseToken(h.move);
      if (p) {
        if (p.dir) S.dir = p.dir;
        S.hint = rowStart(S.view.state.to_move) + p.a - 1;
        renderAll();
        S.board.focusHole(S.hint);
      }
      toast(t('game.hint_is', { move: h.move }));
    } catch (err) { toast(t('error', { error: err.message }), 'error'); }
  }

  async function nextRound() {
    try {
      const g = await api('POST', `/api/games/${id}/next-round`, undefined, S.token);
      accept(g, null);
    } catch (err) { toast(t('error', { error: err.message }), 'error'); }
  }

  function step(delta) {
    if (!S.view) return;
    const last = S.view.history.length;
    const cur = S.frame === null ? last : S.frame;
    const next = Math.max(0, Math.min(last, cur + delta));
    S.frame = next >= last ? null : next;
    renderAll();
  }

  $('undo').addEventListener('click', undo);
  $('hint').addEventListener('click', hint);
  $('skip').addEventListener('click', skip);
  $('speed').addEventListener('change', (e) => { S.speed = e.target.value; localStorage.setItem('hoyito.speed', S.speed); });
  $('first').addEventListener('click', () => { S.frame = 0; renderAll(); });
  $('prev').addEventListener('click', () => step(-1));
  $('next').addEventListener('click', () => step(1));
  $('live').addEventListener('click', () => { S.frame = null; renderAll(); });
  $('moves').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-frame]');
    if (!b) return;
    const k = Number(b.dataset.frame);
    S.frame = k >= S.view.history.length ? null : k;
    renderAll();
  });
  for (const b of $('dir').querySelectorAll('button')) {
    b.addEventListener('click', () => { S.dir = b.dataset.dir; S.first = null; renderAll(); });
  }

  // --- keyboard
  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    const v = S.view;
    if (!v) return;
    const digits = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 0: 10, '-': 11, '=': 12 };
    if (e.key in digits) {
      const k = digits[e.key];
      if (k > n()) return;
      e.preventDefault();
      const side = v.state.over ? 'south' : v.state.to_move;
      onHole(rowStart(side) + k - 1);
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const legal = [...legalHoles()];
      if (!legal.length || !S.board) return;
      e.preventDefault();
      legal.sort((a, b) => S.board.place(a).x - S.board.place(b).x);
      const focused = legal.indexOf(Number(document.activeElement?.dataset?.hole));
      const d = e.key === 'ArrowRight' ? 1 : -1;
      const next = focused < 0 ? (d > 0 ? 0 : legal.length - 1) : (focused + d + legal.length) % legal.length;
      S.board.focusHole(legal[next]);
    } else if (e.key === 'l' || e.key === 'L' || e.key === 'r' || e.key === 'R') {
      if (v.direction_choice) { S.dir = e.key.toUpperCase(); S.first = null; renderAll(); }
    } else if (e.key === 'u' || e.key === 'U') {
      if (!$('undo').hidden && !$('undo').disabled) undo();
    } else if (e.key === 'h' || e.key === 'H') {
      if (!$('hint').hidden && canMove()) hint();
    } else if (e.key === 'Escape') {
      if (S.animating) skip();
      else if (S.first !== null) { S.first = null; renderAll(); }
    } else if (e.key === '[') {
      step(-1);
    } else if (e.key === ']') {
      step(1);
    }
  }
  document.addEventListener('keydown', onKey);

  // --- live connection
  function connect() {
    if (S.closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${id}/ws`);
    S.ws = ws;
    ws.onopen = () => { S.backoff = 0; $('conn').hidden = true; };
    ws.onmessage = (e) => {
      if (e.data === 'pong') return;
      const msg = JSON.parse(e.data);
      accept(msg.game, msg.type === 'move' ? msg.move : null);
    };
    ws.onclose = () => {
      if (S.closed) return;
      $('conn').hidden = false;
      const delay = Math.min(10000, 400 * 2 ** S.backoff) * (0.75 + Math.random() * 0.5);
      S.backoff += 1;
      S.timer = setTimeout(connect, delay);
    };
    ws.onerror = () => ws.close();
  }
  S.ping = setInterval(() => { if (S.ws && S.ws.readyState === 1) S.ws.send('ping'); }, 25000);

  async function start() {
    const invite = params.get('invite');
    if (invite) {
      if (!S.token) {
        try {
          const r = await api('POST', `/api/games/${id}/join`, { invite });
          seats.set(id, { token: r.token, seat: r.seat });
          S.token = r.token;
          S.seat = r.seat;
          toast(t('game.joined', { side: sideName(r.seat) }));
        } catch (err) {
          if (err.status === 404) { app.innerHTML = `<section class="card"><p>${t('game.not_found')}</p></section>`; return; }
          toast(t('game.join_failed', { error: err.message }), 'error');
        }
      }
      history.replaceState(null, '', `/g/${id}`);
    }
    try {
      const g = await api('GET', `/api/games/${id}`);
      accept(g, null);
    } catch (err) {
      if (err.status === 404) { app.innerHTML = `<section class="card"><p>${t('game.not_found')}</p></section>`; return; }
      toast(t('error', { error: err.message }), 'error');
    }
    connect();
  }
  start();

  teardown = () => {
    S.closed = true;
    clearTimeout(S.timer);
    clearInterval(S.ping);
    if (S.ws) S.ws.close();
    S.skip = true;
    if (S.wake) S.wake();
    document.removeEventListener('keydown', onKey);
  };
}

route();
