// The one way the app writes HTML: templates whose every value is escaped.
//
//   setHtml(box, html`<p>${t('game.wins', { name })}</p>`)
//
// A value in `html` is escaped unless it was made by `html` itself (or is
// an array of those), so player names, chat, record tags and anything else
// from the server always arrive as text. `setHtml` takes nothing but what
// `html` made. The pages run under a Content-Security-Policy that requires
// Trusted Types: in browsers that enforce it, assigning any other string to
// `innerHTML` throws, and the one policy allowed, made here, only passes on
// what `html` escaped. Script URLs (the service worker, the engine's worker)
// go through `scriptUrl`, which takes only paths of this site.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `s` escaped for HTML text and attribute values. */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** HTML made by `html` (or `trustedHtml`): safe to put in the page as it is. */
class Html {
  constructor(s) { this.s = s; }

  toString() { return this.s; }
}

function part(v) {
  if (v instanceof Html) return v.s;
  if (Array.isArray(v)) return v.map(part).join('');
  if (v === null || v === undefined || v === false) return '';
  return esc(v);
}

/** A template tag: the HTML of `strings` with every value escaped (false, null and undefined give nothing). */
export function html(strings, ...values) {
  let s = strings[0];
  for (let i = 0; i < values.length; i += 1) s += part(values[i]) + strings[i + 1];
  return new Html(s);
}

/**
 * HTML that the app itself produced from escaped input (the rules page's
 * Markdown renderer escapes its text first). Never for data from elsewhere.
 */
export const trustedHtml = (s) => new Html(String(s));

const policy = globalThis.trustedTypes && globalThis.trustedTypes.createPolicy
  ? globalThis.trustedTypes.createPolicy('hoyito', {
    createHTML: (s) => s,
    createScriptURL: (s) => {
      const url = new URL(s, location.origin);
      if (url.origin !== location.origin) throw new TypeError(`not a script of this site: ${s}`);
      return url.href;
    },
  })
  : null;

/** Replaces the contents of `el` with `h`, made by `html`. */
export function setHtml(el, h) {
  if (!(h instanceof Html)) throw new TypeError('setHtml takes only what html`…` made');
  el.innerHTML = policy ? policy.createHTML(h.s) : h.s;
}

/** A script URL of this site (a path or a same-origin URL), for workers and the service worker. */
export function scriptUrl(u) {
  if (policy) return policy.createScriptURL(String(u));
  const url = new URL(String(u), location.origin);
  if (url.origin !== location.origin) throw new TypeError(`not a script of this site: ${u}`);
  return url.href;
}
