// Small helpers shared by the pages: HTML escaping, side names, the toast.

import { t } from './i18n.js';

/** `s` escaped for HTML text and attribute values. */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

/** "South" or "North" in the current language. */
export const sideName = (s) => t(`side.${s}`);

let toastTimer = null;

/** Shows `msg` for a few seconds at the bottom of the page. */
export function toast(msg, kind = 'info') {
  const el = document.getElementById('toast');
  el.textContent = msg;
  el.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = ''; }, 3500);
}

/** Shows an error toast for a failed request. */
export const toastError = (err) => toast(t('error', { error: err.message }), 'error');
