// Joining an online game through its invite link: the page asks the
// invited player for a nickname first (optional, the same field, limits
// and server error texts as the New game form's, remembered in
// localStorage 'hoyito.name' as the form does), then takes the free seat.
// The seat of a rated game is for a signed-in player: a signed-out one is
// told so, with a link to sign in that comes back to the invite.

import { t } from '../i18n.js';
import { api, seats, whoAmI } from '../api.js';
import { errorText, sideName, toast } from '../ui.js';
import { html, setHtml } from '../html.js';

/**
 * Says in `box` that rated game `id` needs a signed-in player, with the
 * link to sign in and come back to `invite`.
 */
function signInToJoin(box, id, invite) {
  const back = `/g/${id}?invite=${encodeURIComponent(invite)}`;
  setHtml(box, html`<div class="card join" id="rated-sign-in" role="alert"><p>${t('join.rated_signed_out')}</p>
    <p><a class="button primary" href="/account?next=${encodeURIComponent(back)}" data-nav>${t('join.sign_in')}</a></p></div>`);
}

/**
 * Shows the join form in `box` for game `id` and its `invite` secret (for
 * a `rated` game, only to a signed-in player);
 * resolves once the player joined (to the seat response), or to null if
 * the seat went meanwhile (the player watches) or to 'gone' for a game
 * that no longer exists. A refused nickname keeps the form, with the
 * server's reason in a toast.
 */
export async function askToJoin(box, id, invite, rated = false) {
  if (rated && !await whoAmI()) {
    signInToJoin(box, id, invite);
    return null;
  }
  setHtml(box, html`<form id="join-form" class="card join">
    <h2 id="join-title">${t('join.title')}</h2>
    <label>${t('new.name')}<input name="nickname" maxlength="24" autocomplete="nickname"></label>
    <button type="submit" class="primary" id="join">${t('lobby.join')}</button></form>`);
  const form = box.querySelector('form');
  form.elements.nickname.value = localStorage.getItem('hoyito.name') || '';
  form.elements.nickname.focus({ preventScroll: true });
  return new Promise((resolve) => {
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const name = form.elements.nickname.value.trim();
      const button = form.querySelector('button');
      button.disabled = true;
      try {
        const r = await api('POST', `/api/games/${id}/join`, name ? { invite, name } : { invite });
        if (name) localStorage.setItem('hoyito.name', name); else localStorage.removeItem('hoyito.name');
        seats.set(id, { token: r.token, seat: r.seat });
        toast(t('game.joined', { side: sideName(r.seat) }));
        box.replaceChildren();
        resolve(r);
      } catch (err) {
        button.disabled = false;
        if (err.code === 'signed_out') { signInToJoin(box, id, invite); resolve(null); return; }
        toast(t('game.join_failed', { error: errorText(err) }), 'error');
        if (err.status === 404) { box.replaceChildren(); resolve('gone'); } else if (err.status === 409 || err.status === 403) { box.replaceChildren(); resolve(null); }
      }
    });
  });
}

/**
 * If the account signed in (`whoAmI`) holds a seat of game `id`, offers in
 * `box` to play it on this device; resolves to the seat response once the
 * seat is taken (a new token: the device that held it holds it no more),
 * or to null (not signed in, not the account's game).
 */
export async function offerAccountSeat(box, id, whoAmI) {
  if (!await whoAmI()) return null;
  let games;
  try { ({ games } = await api('GET', '/api/account/games?limit=200')); } catch { return null; }
  const game = games.find((g) => g.id === id);
  if (!game || !box.isConnected) return null;
  setHtml(box, html`<div class="card join" id="account-seat"><p>${t('account.seat_here')}</p>
    <button type="button" class="primary" id="take-seat">${t('account.take_seat')}</button></div>`);
  const button = box.querySelector('button');
  return new Promise((resolve) => {
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const r = await api('POST', `/api/games/${id}/seat`);
        seats.set(id, { token: r.token, seat: r.seat });
        toast(t('account.seat_taken', { side: sideName(r.seat) }));
        box.replaceChildren();
        resolve(r);
      } catch (err) {
        button.disabled = false;
        toast(t('error', { error: errorText(err) }), 'error');
      }
    });
  });
}
