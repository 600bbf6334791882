// A list's pager on the player's page: "Newer", "Page 2 of 5", "Older".
// The page draws it with `pagerHtml` and wires it with `wirePager`, which
// keeps the focus on the pager across the redraw.

import { t } from '../i18n.js';
import { html } from '../html.js';

/**
 * The pager of page `page` (from 0) of `pages`, labelled `label`, its
 * elements' ids `ids.newer`, `ids.page`, `ids.older`; nothing for one page.
 */
export function pagerHtml(ids, page, pages, label) {
  if (pages <= 1) return '';
  return html`<nav class="pager" aria-label="${label}">
    <button type="button" id="${ids.newer}"${page === 0 ? html` disabled` : ''}>${t('player.newer')}</button>
    <span id="${ids.page}">${t('player.page', { page: page + 1, pages })}</span>
    <button type="button" id="${ids.older}"${page === pages - 1 ? html` disabled` : ''}>${t('player.older')}</button></nav>`;
}

/**
 * Wires the pager drawn for page `page`: its buttons call `go(page, id)`
 * with the page they lead to and their own id. `focus`, the id of the
 * button pressed to draw this page, keeps the focus: on it, or on the
 * other button once it is disabled.
 */
export function wirePager(ids, page, go, focus) {
  for (const [id, to] of [[ids.newer, page - 1], [ids.older, page + 1]]) {
    const b = document.getElementById(id);
    if (b) b.addEventListener('click', () => go(to, id));
  }
  if (focus) {
    const b = document.getElementById(focus);
    (b && !b.disabled ? b : document.getElementById(focus === ids.older ? ids.newer : ids.older))?.focus();
  }
}
