// The service worker of the offline app. When it installs it caches every
// file of the app (the list comes from /precache.json, written by the
// server or by `hoyito export-site`), the WebAssembly rules and engine
// included, and the offline puzzle pack (/puzzle-pack.json, a few hundred
// puzzles that local/puzzles.js plays when no server answers). Afterwards the app's files come from the cache at once (the
// cache is refreshed from the network in the background, so the next visit
// gets any new version); every page address gets the cached index.html.
// The API (/api/…) always goes to the network: offline it fails, and the
// app says that the feature needs a connection. The endgame tables a user
// downloads (/api/tables/…) are never precached: they are optional and
// big, and local/tables.js keeps them in a cache of their own.

const CACHE = 'hoyito-app';

async function precache() {
  const res = await fetch('/precache.json', { cache: 'no-store' });
  const { files } = await res.json();
  const cache = await caches.open(CACHE);
  await cache.addAll(files.map((f) => new Request(f, { cache: 'reload' })));
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The cached answer to `request` (if any), refreshed from the network in the background. */
async function cachedThenRefresh(event, key) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(key);
  const refresh = fetch(event.request).then((res) => {
    if (res.ok && res.type === 'basic') cache.put(key, res.clone());
    return res;
  });
  if (cached) {
    event.waitUntil(refresh.catch(() => {}));
    // A new Response, so that the page sees it at the address it asked
    // for: a module's relative imports resolve against its response's URL,
    // and the cached one's is the file's plain path (/app.js for
    // /v/<build>/app.js). Served as it is, a module would load from both
    // addresses, twice, with two copies of its state (the language among them).
    return new Response(cached.body, { status: cached.status, statusText: cached.statusText, headers: cached.headers });
  }
  return refresh;
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/precache.json') return;
  // Every page of the one-page app is index.html; a file under a build's
  // fingerprint (/v/<build>/app.js, which the server's index.html loads) is
  // cached as the file itself.
  const key = req.mode === 'navigate' ? '/' : url.pathname.replace(/^\/v\/[^/]+\//, '/');
  event.respondWith(cachedThenRefresh(event, key));
});
