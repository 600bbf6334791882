// The game page: lays out its parts and wires the state, the drawing, the
// animation queue, the input and the live connection together.

import { t } from '../i18n.js';
import { api, seats, whoAmI } from '../api.js';
import { sideName, toast, toastError } from '../ui.js';
import { html, setHtml } from '../html.js';
import { createState, accept, complete, staleThinking } from './state.js';
import { renderAll, boardFits } from './render.js';
import { pump } from './animation.js';
import { SPEEDS } from './pace.js';
import { onHole, nextRound, bindInput } from './input.js';
import { openSocket } from './socket.js';
import { initAnalysis, drawAnalysis } from './analysis.js';
import { bindEndings, noticeDecline } from './endings.js';
import { bindChat, loadChat, onChat } from './chat.js';
import { stopClock, clockConnection } from './clock.js';
import { resetAlerts } from './alerts.js';
import { takePresence, drawPresence } from './presence.js';
import { askToJoin, offerAccountSeat } from './join.js';
import { bindPreview, previewFirst, clearPreview } from './preview.js';
import { isLocalId, bindLocalDownload } from '../local/backend.js';
import { bindShare } from './share.js';

/**
 * What has the focus on the game page, to find it again once drawn anew:
 * its id, or the step of the list of moves, or the hole.
 */
function focusMark(app) {
  const el = document.activeElement;
  if (!el || el === document.body || !app.contains(el)) return null;
  return {
    el, id: el.id || null, frame: el.dataset?.frame, hole: el.dataset?.hole, analysis: !!el.closest('#analysis'),
  };
}

/**
 * Gives the focus back after a redraw replaced the element that had it
 * (the list of moves, the result, the analysis are drawn anew): the
 * element with the same id or step; the analysis's heading for the
 * Analyse button, which the analysis replaces. Never to the page's body.
 */
function restoreFocus(G, mark) {
  if (!mark || mark.el.isConnected) return;
  let el = null;
  if (mark.id) el = G.$(mark.id);
  else if (mark.frame !== undefined) el = document.querySelector(`#moves button[data-frame="${mark.frame}"]`);
  else if (mark.hole !== undefined && G.S.board) { G.S.board.focusHole(Number(mark.hole)); return; }
  if (!el && mark.analysis) el = G.$('an-title');
  if (el) el.focus({ preventScroll: true });
}

/**
 * Where the focus goes when it has none on the page (after Start, when the
 * button that had it went with the New game page; at the end of a game,
 * when the button that had it went): the result once the game is over,
 * else the board.
 */
function settleFocus(G, app) {
  const el = document.activeElement;
  if (el && el !== document.body && el !== app && el.isConnected) return;
  const result = G.$('summary')?.firstElementChild;
  const target = result || G.$('board-wrap');
  if (target) target.focus({ preventScroll: true });
}

/**
 * Makes the game's screen (players, board, status, what waits for an
 * answer, the action bar) as tall as the window below the page's header:
 * the board takes what the rest leaves, so everything is in view without
 * scrolling, on a phone as on a desktop.
 */
function fitScreen(G) {
  const screen = G.$('screen');
  if (!screen) return;
  const top = screen.getBoundingClientRect().top + window.scrollY;
  const pad = parseFloat(getComputedStyle(screen.closest('main')).paddingBottom) || 0;
  const h = `${Math.max(0, Math.floor(window.innerHeight - top - pad))}px`;
  screen.style.minHeight = h;
  screen.style.setProperty('--screen-h', h);
}

function layout(id, speed) {
  return html`
  <section class="game" aria-labelledby="game-title">
    <h1 id="game-title" class="sr-only">Hoyito</h1>
    <div class="game-main">
      <div id="screen" class="screen">
        <div id="join-box"></div>
        <div class="table">
        <div class="player upper" id="p-top"></div>
        <div class="board-area">
          <div id="board-wrap" class="board-wrap" tabindex="-1"></div>
          <p id="preview" class="preview" aria-live="polite"></p>
          <div id="dir" class="dir-pick" role="group" aria-label="${t('game.direction')}" hidden>
            <button type="button" data-dir="L">${t('dir.L')}</button>
            <button type="button" data-dir="R">${t('dir.R')}</button>
          </div>
        </div>
        <div class="player lower" id="p-bottom"></div>
        </div>
        <div class="dock">
        <div class="status-row"><span id="rated-tag" class="tag rated-tag" hidden>${t('game.rated')}</span><p id="status" class="status" aria-live="polite"></p><p id="last-move" class="last-move muted"></p></div>
        <p id="standing" class="standing" hidden></p>
        <p id="clock-alert" class="clock-alert" role="alert"></p>
        <p id="hud" class="hud" aria-live="off"></p>
        <p id="conn" class="conn" hidden>${t('game.reconnecting')}</p>
        <div id="claim"></div>
        <div id="draw-offer"></div>
        <div id="takeback-offer"></div>
        <div id="invite"></div>
        <div id="summary"></div>
        <div class="controls" id="controls">
          <button type="button" id="undo" hidden disabled>${t('game.undo')}</button>
          <button type="button" id="hint" hidden disabled>${t('game.hint')}</button>
          <button type="button" id="offer-draw" hidden>${t('game.offer_draw')}</button>
          <button type="button" id="ask-takeback" hidden>${t('game.takeback')}</button>
          <button type="button" id="resign-round" hidden>${t('game.resign_round')}</button>
          <button type="button" id="resign" hidden>${t('game.resign')}</button>
          <button type="button" id="abort" hidden>${t('game.abort')}</button>
          <button type="button" id="skip" hidden>${t('game.skip')}</button>
          <button type="button" id="more" class="more" aria-expanded="false" aria-controls="menu" aria-haspopup="true"><span aria-hidden="true">☰</span> <span class="more-word">${t('game.menu')}</span></button>
          <div id="menu" class="menu">
            <button type="button" id="flip" aria-pressed="false">${t('game.flip')}</button>
            <label class="speed">${t('game.speed')}
              <select id="speed">${Object.keys(SPEEDS).map((k) => html`<option value="${k}"${k === speed ? html` selected` : ''}>${t(`speed.${k}`)}</option>`)}</select></label>
            <a id="download" class="button" href="/api/games/${id}/record" download>${t('game.download')}</a>
            <button type="button" id="share-link">${t('share.link')}</button>
            <button type="button" id="share-image">${t('share.image')}</button>
            <button type="button" id="analyse-here">${t('game.analyse_here')}</button>
            <button type="button" id="to-chat" hidden>${t('chat.title')}</button>
          </div>
        </div>
        </div>
      </div>
      <div id="analysis"></div>
      <div id="alerts" class="alerts"></div>
      <p class="keys muted">${t('game.keys')}</p>
      <p id="spectators" class="muted spectators" hidden></p>
    </div>
    <aside class="moves-panel">
      <h2>${t('game.moves')}</h2>
      <div class="stepper">
        <button type="button" id="first" title="${t('game.first')}" aria-label="${t('game.first')}">«</button>
        <button type="button" id="prev" title="${t('game.prev')}" aria-label="${t('game.prev')}">◀</button>
        <button type="button" id="next" title="${t('game.next')}" aria-label="${t('game.next')}">▶</button>
        <button type="button" id="live" title="${t('game.live')}">${t('game.live')}</button>
      </div>
      <p id="viewing" class="muted" hidden></p>
      <ol id="moves" class="moves"></ol>
      <section id="chat" class="chat" hidden></section>
    </aside>
  </section>`;
}

/** Shows game `id` in `app`; returns the page's teardown. */
export function gamePage(app, id) {
  const params = new URLSearchParams(location.search);
  const S = createState(id, seats.get(id));
  document.title = `Hoyito — ${id}`;
  setHtml(app, layout(id, S.speed));
  // A game page opens at its top, the board in view (not where the last page was scrolled to).
  window.scrollTo(0, 0);
  if (isLocalId(id)) bindLocalDownload(document.getElementById('download'), id);

  // The context every part of the page works on.
  let closeSocket = null;
  let closed = false;
  let resyncTimer = null;
  let staleChecks = 0;
  const G = {
    S,
    $: (sel) => document.getElementById(sel),
    render: () => {
      const mark = focusMark(app);
      fitScreen(G);
      renderAll(G);
      // The room left for the board is known once the rest is drawn: it may stand up or lie across.
      if (!boardFits(G)) renderAll(G);
      drawAnalysis(G);
      restoreFocus(G, mark);
      settleFocus(G, app);
    },
    accept(delta, ev) {
      const game = complete(S, delta);
      if (!game) { G.resync(); return; }
      takePresence(S, game.presence);
      noticeDecline(S, S.latest, game);
      if (accept(S, game, ev)) pump(G);
      // The server does not announce the end of a search an undo stopped:
      // ask again until it has ended (a few tenths of a second).
      if (staleThinking(game) && staleChecks < 40) {
        staleChecks += 1;
        clearTimeout(resyncTimer);
        resyncTimer = setTimeout(G.resync, 250);
      } else if (!staleThinking(game)) {
        staleChecks = 0;
      }
    },
    /** Fetches the game and shows it as the server has it. */
    async resync() {
      if (closed) return;
      try {
        G.accept(await api('GET', `/api/games/${id}`), null);
      } catch (err) {
        toastError(err);
      }
    },
    // A first tap on a touch screen previews the move; the second plays it
    // (a click plays at once). Where each move's direction is chosen, the
    // tap offers the two directions at the hole instead, and one plays it.
    onHole: (i) => {
      if (S.view && S.view.direction_choice) { onHole(G, i); return; }
      if (!previewFirst(G, i)) { clearPreview(G); onHole(G, i); }
    },
    nextRound: () => nextRound(G),
  };
  // The board turned round from where it stands for this seat, remembered per game.
  const flipKey = `hoyito.flip.${id}`;
  S.flip = localStorage.getItem(flipKey) === '1';
  G.$('flip').addEventListener('click', () => {
    S.flip = !S.flip;
    if (S.flip) localStorage.setItem(flipKey, '1'); else localStorage.removeItem(flipKey);
    if (S.view && !S.animating) G.render();
    else if (S.board) { S.board.setFlipped((S.seat === 'north') !== S.flip); }
    G.$('flip').setAttribute('aria-pressed', String(S.flip));
  });
  G.$('flip').setAttribute('aria-pressed', String(S.flip));
  const unbindInput = bindInput(G);
  const unbindPreview = bindPreview(G);
  const stopAnalysis = initAnalysis(G);
  bindEndings(G);
  bindChat(G);
  bindShare(G);
  fitScreen(G);
  // A turned phone or a resized window may stand the board upright or lay it across.
  const onResize = () => { fitScreen(G); if (S.view && !S.animating) G.render(); };
  window.addEventListener('resize', onResize);
  document.getElementById('announce').textContent = '';
  // A game that does not exist: say so, and offer a new one.
  const notFound = () => {
    setHtml(app, html`<section class="card narrow"><h1>${t('game.not_found')}</h1>
      <p><a class="button primary" href="/" data-nav id="new-game-link">${t('game.new_game')}</a></p></section>`);
    document.getElementById('new-game-link').focus({ preventScroll: true });
  };

  async function start() {
    const invite = params.get('invite');
    try {
      const g = await api('GET', `/api/games/${id}`);
      // A link to a step of the game (?step=N) opens the replay there.
      const step = Number(params.get('step'));
      if (params.has('step') && Number.isInteger(step) && step >= 0 && step < g.history.length) S.frame = step;
      G.accept(g, null);
    } catch (err) {
      if (err.status === 404) { notFound(); return; }
      toastError(err);
      // No game to show (offline, the server down): say so; no action is offered over no board.
      if (!S.view) G.$('status').textContent = t('game.offline');
    }
    // Invited to a game whose seat is free: the player says their nickname, then joins.
    if (invite && !S.token && S.latest && S.latest.status === 'waiting') {
      const r = await askToJoin(G.$('join-box'), id, invite, !!S.latest.rated);
      if (closed) return;
      if (r === 'gone') { notFound(); return; }
      if (r) {
        S.token = r.token;
        S.seat = r.seat;
        G.accept(r.game, null);
      }
    }
    if (invite || params.has('step')) history.replaceState(null, '', `/g/${id}`);
    if (closed) return;
    // A game of the account signed in, whose seat this browser does not
    // hold: the player may take the seat here.
    if (!S.token && !isLocalId(id) && S.latest) {
      offerAccountSeat(G.$('join-box'), id, whoAmI).then((r) => {
        if (!r || closed) return;
        S.token = r.token;
        S.seat = r.seat;
        G.accept(r.game, null);
      });
    }
    // The messages so far are fetched each time the socket opens, so none
    // sent before it was listening (or while it was down) is missed.
    // `#conn[data-synced]`: the socket's first view has been taken (the
    // page then follows the server; tests wait for it).
    const synced = (game, move) => {
      const taken = G.accept(game, move);
      G.$('conn').dataset.synced = 'true';
      return taken;
    };
    closeSocket = openSocket(id, synced, (up) => {
      G.$('conn').hidden = up;
      if (!up) delete G.$('conn').dataset.synced;
      clockConnection(G, up);
      if (up) loadChat(G);
    }, (m) => onChat(G, m), (p) => { takePresence(S, p); drawPresence(G); });
  }
  start();

  return () => {
    closed = true;
    clearTimeout(resyncTimer);
    if (closeSocket) closeSocket();
    S.skip = true;
    if (S.wake) S.wake();
    unbindInput();
    unbindPreview();
    stopAnalysis();
    window.removeEventListener('resize', onResize);
    document.getElementById('announce').textContent = '';
    stopClock(S);
    resetAlerts();
  };
}
