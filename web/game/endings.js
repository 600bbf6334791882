// Ending a game other than by playing it out — abort, draw offers (resign
// is in input.js) — and what comes after: how it ended, Rematch and New game.

import { t } from '../i18n.js';
import { api, seats } from '../api.js';
import { esc, toast, toastError } from '../ui.js';
import { navigate } from '../router.js';
import { isOver, say, playerName } from './state.js';
import { isLocalId, createLocalGame } from '../local/backend.js';

/** The sentence telling how `v` was stopped (resigned, aborted, drawn, flagged), or ''. */
export function stopSentence(S, v) {
  if (v.resigned) return say(S, 'game.resigned', v.resigned);
  if (v.aborted) return say(S, 'game.aborted', v.aborted);
  if (v.flagged) return say(S, 'game.flagged', v.flagged);
  if (v.end === 'agreed_draw') return t('game.draw_agreed');
  return '';
}

/** The move-list label of a step that stopped the game, or null for other steps. */
export function stopStepLabel(S, s) {
  if (s.kind === 'resign') return say(S, 'game.resigned', s.side);
  if (s.kind === 'concede') return say(S, 'game.conceded', s.side);
  if (s.kind === 'abort') return say(S, 'game.aborted', s.side);
  if (s.kind === 'flag') return say(S, 'game.flagged', s.side);
  if (s.kind === 'draw') return t('game.draw_agreed');
  return null;
}

const moved = (v, side) => v.history.some((s) => s.kind === 'move' && s.side === side);

/** Whether this browser's player may abort now: seated, the game goes on, not both have moved. */
export const canAbort = (S, v) => !!S.seat && !isLocalId(S.id) && !isOver(v) && !(moved(v, 'south') && moved(v, 'north'));

/** Whether this browser's player may offer a draw now. */
export function canOfferDraw(S, v) {
  // Games on this device have no draw offers: resign or play on.
  if (!S.seat || S.seat === 'both' || isLocalId(S.id) || isOver(v) || v.mode === 'hotseat' || v.state.over) return false;
  // The computer is asked once per move.
  if (v.mode === 'engine') return v.state.to_move === S.seat && !v.thinking && S.drawAskedAt !== `${v.epoch}:${v.seq}`;
  return v.draw_offer !== S.seat;
}

/** Shows and hides the abort and draw buttons, and the box answering a draw offer. */
export function drawEndControls(G) {
  const { S, $ } = G;
  const v = S.view;
  $('abort').hidden = !canAbort(S, v);
  $('offer-draw').hidden = !canOfferDraw(S, v) || (v.draw_offer && v.draw_offer !== S.seat);
  const box = $('draw-offer');
  const toMe = v.draw_offer && S.seat && S.seat !== 'both' && v.draw_offer !== S.seat && !isOver(v);
  if (toMe) {
    if (!box.dataset.shown) {
      box.innerHTML = `<div class="card draw-offer" role="alert"><p>${esc(t('game.draw_offer_from', { name: playerName(S, v.draw_offer) }))}</p>
        <button type="button" class="primary" id="accept-draw">${t('game.accept_draw')}</button>
        <button type="button" id="decline-draw">${t('game.decline_draw')}</button></div>`;
      box.dataset.shown = '1';
      $('accept-draw').addEventListener('click', () => drawAction(G, 'accept'));
      $('decline-draw').addEventListener('click', () => drawAction(G, 'decline'));
    }
  } else {
    box.innerHTML = v.draw_offer === S.seat && !isOver(v) ? `<p class="muted">${t('game.draw_offered')}</p>` : '';
    delete box.dataset.shown;
  }
}

async function drawAction(G, action) {
  const { S } = G;
  try {
    const r = await api('POST', `/api/games/${S.id}/draw`, { action }, S.token);
    if (action === 'offer' && S.view.mode === 'engine' && !r.accepted) {
      S.drawAskedAt = `${r.game.epoch}:${r.game.seq}`;
      toast(t('game.draw_declined'));
    }
    G.accept(r.game, null);
  } catch (err) {
    toastError(err);
    if (err.status === 409) G.resync();
  }
}

async function abort(G) {
  const { S } = G;
  if (!window.confirm(t('game.abort_confirm'))) return;
  try {
    G.accept(await api('POST', `/api/games/${S.id}/abort`, undefined, S.token), null);
  } catch (err) {
    toastError(err);
    if (err.status === 409) G.resync();
  }
}

/** Wires the abort and draw buttons. */
export function bindEndings(G) {
  G.$('abort').addEventListener('click', () => abort(G));
  G.$('offer-draw').addEventListener('click', () => drawAction(G, 'offer'));
}

/** The settings of game `v` for a new game like it, with the sides swapped. */
function rematchBody(S, v) {
  const mySide = S.seat === 'north' ? 'north' : 'south';
  const body = {
    mode: v.mode, rules: v.rules, match: v.match, level: v.level,
    side: mySide === 'south' ? 'north' : 'south',
  };
  if (v.mode === 'engine') body.side = v.engine_side; // the engine's seat is now the player's
  const name = localStorage.getItem('hoyito.name');
  if (name && v.mode !== 'hotseat') body.name = name;
  if (v.clock) body.clock = { initial: v.clock.initial, increment: v.clock.increment, days: v.clock.days };
  return body;
}

/** The Rematch and New game buttons under the result (for the game's players). */
export function afterButtons(S, v) {
  if (!isOver(v) || !S.seat) return '';
  return `<div class="after"><button type="button" class="primary" id="rematch">${t('game.rematch')}</button>
    <a class="button" href="/" data-nav id="new-game-link">${t('game.new_game')}</a></div>`;
}

/** Wires the Rematch button, if shown. */
export function bindAfter(G) {
  const b = G.$('rematch');
  if (!b) return;
  b.addEventListener('click', async () => {
    const { S } = G;
    b.disabled = true;
    try {
      // A game on this device is followed by another one on this device.
      const body = rematchBody(S, S.view);
      const r = isLocalId(S.id) ? await createLocalGame(body) : await api('POST', '/api/games', body);
      seats.set(r.id, { token: r.token, seat: r.seat, invite: r.invite || null });
      navigate(`/g/${r.id}`);
    } catch (err) {
      b.disabled = false;
      toastError(err);
    }
  });
}

/** The line of the result telling how the game ended. */
export const endLine = (v) => (v.end && v.end !== 'play' ? `<p class="ended-by">${t('game.ended_by')}: ${esc(t(`end.${v.end}`))}</p>` : '');
