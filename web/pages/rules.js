// The Rules page: the rules in the page's language. English is RULES.md
// itself (the authoritative text, served unchanged as /rules.md), its §7
// for developers folded away; Spanish and Kreyòl are translations
// (/rules.es.md, /rules.ht.md) that link to the English text, shown by
// /rules?lang=en under any page language.

import { getLang, t } from '../i18n.js';
import { renderMarkdown } from '../markdown.js';
import { html, setHtml, trustedHtml } from '../html.js';

/** The rules document of each language. */
const DOCS = { en: '/rules.md', es: '/rules.es.md', ht: '/rules.ht.md' };

/** Where the English text's sections for developers start (the machine-readable state). */
const DEVELOPERS = /^## 7\. /m;

// The page language at the last showing of this page: ?lang=en asks for
// the English text only until the page language changes.
let shownIn = null;

/** The language of the document to show: the page's, or the one ?lang= asks for. */
function docLang(ui) {
  const params = new URLSearchParams(location.search);
  const asked = params.get('lang');
  if (!asked) return ui;
  if (DOCS[asked] && (shownIn === null || shownIn === ui)) return asked;
  // The language was switched on this page (or ?lang= names none): the
  // switch wins, and the address drops ?lang=.
  history.replaceState(history.state, '', location.pathname);
  return ui;
}

/** The HTML of the rules text `text` in language `lang`. */
function render(text, lang) {
  const at = lang === 'en' ? text.search(DEVELOPERS) : -1;
  // The renderer escapes the text before it adds its own tags.
  if (at < 0) return trustedHtml(renderMarkdown(text));
  return html`${trustedHtml(renderMarkdown(text.slice(0, at)))}
    <details class="developers"><summary>${t('rules.developers')}</summary>${trustedHtml(renderMarkdown(text.slice(at)))}</details>`;
}

/** Shows the Rules page in `app`. */
export async function rulesPage(app) {
  const ui = getLang();
  const lang = docLang(ui);
  shownIn = ui;
  document.title = `Hoyito — ${t('rules.title')}`;
  let other = null;
  if (lang !== 'en') other = html` · <a href="/rules?lang=en" data-nav id="rules-english">${t('rules.english')}</a>`;
  else if (ui !== 'en') other = html` · <a href="/rules" data-nav id="rules-translation">${t('rules.translation')}</a>`;
  setHtml(app, html`<p class="card narrow"><a href="/how-to-play" data-nav>${t('help.link')}</a>${other}</p>
    <article class="card rules" id="rules" lang="${lang}">…</article>`);
  const el = document.getElementById('rules');
  let text;
  try {
    const res = await fetch(DOCS[lang]);
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    text = await res.text();
  } catch (e) {
    if (el.isConnected) setHtml(el, html`<p role="alert">${t('error', { error: e.message })}</p>`);
    return;
  }
  // Another page (or this one in another language) may have replaced it meanwhile.
  if (!el.isConnected) return;
  setHtml(el, render(text, lang));
  // Links to the app's own pages (the translations' link to the English text) navigate without a reload.
  for (const a of el.querySelectorAll('a[href^="/"]')) {
    if (!/\.\w+$/.test(new URL(a.href).pathname)) a.dataset.nav = '';
  }
}
