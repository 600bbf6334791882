// The page for an address the app does not know.

import { t } from '../i18n.js';
import { html, setHtml } from '../html.js';

/** Shows the not-found page in `app`. */
export function notFoundPage(app) {
  document.title = `Hoyito — ${t('notfound.title')}`;
  setHtml(app, html`<section class="card narrow">
    <h1>${t('notfound.title')}</h1>
    <p>${t('notfound.text', { path: location.pathname })}</p>
    <p><a href="/" data-nav>${t('notfound.link')}</a></p>
  </section>`);
}
