// The page for an address the app does not know.

import { t } from '../i18n.js';
import { esc } from '../ui.js';

/** Shows the not-found page in `app`. */
export function notFoundPage(app) {
  document.title = `Hoyito — ${t('notfound.title')}`;
  app.innerHTML = `<section class="card narrow">
    <h1>${t('notfound.title')}</h1>
    <p>${esc(t('notfound.text', { path: location.pathname }))}</p>
    <p><a href="/" data-nav>${t('notfound.link')}</a></p>
  </section>`;
}
