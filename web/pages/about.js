// The About page: Hoyito's licence and the notices of the third-party code
// it ships (THIRD-PARTY.md, made by scripts/third-party.py).

import { t } from '../i18n.js';
import { renderMarkdown } from '../markdown.js';
import { html, setHtml, trustedHtml } from '../html.js';

/** Shows the About page in `app`. */
export async function aboutPage(app) {
  document.title = `Hoyito — ${t('about.title')}`;
  setHtml(app, html`<section class="card narrow"><h1>${t('about.title')}</h1>
    <p>${t('about.licence')}</p>
    <p><a href="/LICENSE-MIT">LICENSE-MIT</a> · <a href="/LICENSE-APACHE">LICENSE-APACHE</a></p></section>
    <article class="card rules" id="notices" lang="en">…</article>`);
  const text = await (await fetch('/THIRD-PARTY.md')).text();
  const el = document.getElementById('notices');
  // The renderer escapes the text before it adds its own tags.
  if (el) setHtml(el, trustedHtml(renderMarkdown(text)));
}
