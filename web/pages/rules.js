// The Rules page: RULES.md, rendered.

import { t } from '../i18n.js';
import { renderMarkdown } from '../markdown.js';
import { html, setHtml, trustedHtml } from '../html.js';

/** Shows the Rules page in `app`. */
export async function rulesPage(app) {
  document.title = `Hoyito — ${t('rules.title')}`;
  // The rules are written in English whatever the page's language.
  setHtml(app, html`<p class="card narrow"><a href="/how-to-play" data-nav>${t('help.link')}</a></p>
    <article class="card rules" id="rules" lang="en">…</article>`);
  const text = await (await fetch('/rules.md')).text();
  const el = document.getElementById('rules');
  // The renderer escapes the text before it adds its own tags.
  if (el) setHtml(el, trustedHtml(renderMarkdown(text)));
}
