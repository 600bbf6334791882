// The installable, offline app: registers the service worker (sw.js, which
// caches the app and the WebAssembly module), and tells whether the
// server answers (offline, or a copy of the app on a static host, has none).

import { scriptUrl } from './html.js';

/** Registers the service worker (once the page has loaded, so it never delays the first paint). */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const go = () => navigator.serviceWorker.register(scriptUrl('/sw.js'), { scope: '/' }).catch((e) => console.error('service worker:', e));
  if (document.readyState === 'complete') go(); else window.addEventListener('load', go, { once: true });
}

/**
 * Whether the Hoyito server answers: false offline, or when the app is
 * served by a static host (no API). Asked at most once a few seconds.
 */
let asked = null;
let askedAt = 0;
export function serverReachable() {
  if (!navigator.onLine) return Promise.resolve(false);
  if (asked && Date.now() - askedAt < 5000) return asked;
  askedAt = Date.now();
  asked = fetch('/api/health', { cache: 'no-store' })
    .then((r) => r.ok && (r.headers.get('content-type') || '').includes('json'))
    .catch(() => false);
  return asked;
}
