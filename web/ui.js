// Small helpers shared by the pages: side names, the toast (HTML is built
// by html.js).

import { t } from './i18n.js';

/** "South" or "North" in the current language. */
export const sideName = (s) => t(`side.${s}`);

let toastTimer = null;
let toastShown = 0; // toasts shown so far; the last one's number identifies it

/** Shows `msg` for a few seconds at the bottom of the page; returns its number for `dismissToast`. */
export function toast(msg, kind = 'info') {
  const el = document.getElementById('toast');
  el.textContent = msg;
  el.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = ''; }, 3500);
  toastShown += 1;
  return toastShown;
}

/** Hides toast number `id` if it is still shown. */
export function dismissToast(id) {
  if (id !== toastShown) return;
  clearTimeout(toastTimer);
  document.getElementById('toast').className = '';
}

/**
 * What a refused request says, in the reader's language: the translation
 * of its API error code (`err.<code>` in i18n.js), else the server's text.
 */
export function errorText(err) {
  const key = err && err.code ? `err.${err.code}` : null;
  const s = key ? t(key) : key;
  return s && s !== key ? s : String(err?.message ?? err);
}

/** Shows an error toast for a failed request. */
export const toastError = (err) => toast(t('error', { error: errorText(err) }), 'error');
