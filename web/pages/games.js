// The Games page: the list of recent games.

import { t, getLang } from '../i18n.js';
import { api } from '../api.js';
import { esc, sideName, toastError } from '../ui.js';

/** Shows the Games page in `app`. */
export async function gamesPage(app) {
  document.title = `Hoyito — ${t('games.title')}`;
  app.innerHTML = `<section class="card"><h1>${t('games.title')}</h1><div id="list">…</div></section>`;
  try {
    const { games } = await api('GET', '/api/games?limit=100');
    const list = document.getElementById('list');
    if (!list) return;
    if (!games.length) { list.innerHTML = `<p class="muted">${t('games.none')}</p>`; return; }
    // Mode and time are left out on narrow screens (class wide-only).
    list.innerHTML = `<table class="games"><thead><tr>
      <th scope="col">${t('games.game')}</th><th scope="col" class="wide-only">${t('games.mode')}</th>
      <th scope="col">${t('games.rules')}</th><th scope="col">${t('games.status')}</th>
      <th scope="col">${t('games.score')}</th><th scope="col" class="wide-only">${t('games.updated')}</th>
      </tr></thead><tbody>${games.map((g) => `
      <tr><td class="id"><a href="/g/${esc(g.id)}" data-nav>${esc(g.id)}</a></td>
      <td class="wide-only">${esc(t(`mode.${g.mode}`))}</td>
      <td>Hoyito ${esc(g.rules.variant)} 2×${g.rules.holes}${g.match ? ` · ${esc(t('games.match'))}` : ''}</td>
      <td>${esc(t(`status.${g.status}`))}${g.result ? ` · ${esc(g.result === 'draw' ? t('game.draw') : t('game.wins', { name: sideName(g.result) }))}` : ''}</td>
      <td>${g.score[0]}–${g.score[1]}</td>
      <td class="muted wide-only">${new Date(g.updated_ms).toLocaleString(getLang())}</td></tr>`).join('')}</tbody></table>`;
  } catch (err) {
    toastError(err);
  }
}
