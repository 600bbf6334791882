// Joining an online game through its invite link: the page asks the
// invited player for a nickname first (optional, the same field, limits
// and server error texts as the New game form's, remembered in
// localStorage 'hoyito.name' as the form does), then takes the free seat.

import { t } from '../i18n.js';
import { api, seats } from '../api.js';
import { errorText, sideName, toast } from '../ui.js';
import { html, setHtml } from '../html.js';

/**
 * Shows the join form in `box` for game `id` and its `invite` secret;
 * resolves once the player joined (to the seat response), or to null if
 * the seat went meanwhile (the player watches) or to 'gone' for a game
 * that no longer exists. A refused nickname keeps the form, with the
 * server's reason in a toast.
 */
export function askToJoin(box, id, invite) {
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
        toast(t('game.join_failed', { error: errorText(err) }), 'error');
        if (err.status === 404) { box.replaceChildren(); resolve('gone'); } else if (err.status === 409 || err.status === 403) { box.replaceChildren(); resolve(null); }
      }
    });
  });
}
