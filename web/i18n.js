// The strings in English, Spanish and Haitian Kreyòl, one catalogue per
// language (web/i18n/en.js, es.js, ht.js), each with every key. The
// language comes from the browser's settings the first time
// (navigator.languages), then from the user's pick (kept in localStorage).

import en from './i18n/en.js';
import es from './i18n/es.js';
import ht from './i18n/ht.js';

const STRINGS = { en, es, ht };

/** The catalogues by language code (en, es, ht), each with every key. */
export const CATALOGUES = STRINGS;

/** The language codes, and each language's name in itself (for the selector). */
export const LANGUAGES = { en: 'English', es: 'Español', ht: 'Kreyòl' };

let lang = pick();

function pick() {
  const saved = localStorage.getItem('hoyito.lang');
  if (saved && STRINGS[saved]) return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  for (const l of langs) {
    const base = String(l).toLowerCase().slice(0, 2);
    if (STRINGS[base]) return base;
  }
  return 'en';
}

/** The current language code. */
export function getLang() {
  return lang;
}

/** Switches the language and remembers the choice. */
export function setLang(l) {
  if (!STRINGS[l]) return;
  lang = l;
  localStorage.setItem('hoyito.lang', l);
  document.documentElement.lang = l;
}

/**
 * The string for `key`, with `{name}` placeholders filled from `vars`.
 * Sentences about a player have a second form for the reader, `key.you`
 * ("You win", not "You wins"); see `game/state.js` `say`.
 */
export function t(key, vars = {}) {
  const s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** Fills every element with a data-i18n attribute. */
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}
