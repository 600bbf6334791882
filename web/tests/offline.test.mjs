// The offline, installable app: the manifest and the service worker, the
// files they need served with the right types, and a game against the
// computer on this device played offline: started after going offline and
// reloading, saved, the browser closed and opened again (still offline),
// the game resumed from the Games page and played to its end. Run with
// tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import {
  startServer, viewport, seriousViolations,
} from './helpers.mjs';

let server;
let profile;

before(async () => {
  server = await startServer();
  profile = mkdtempSync(join(tmpdir(), 'hoyito-offline-'));
});

after(async () => {
  await server?.stop();
  server?.cleanup();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Chromium with a profile kept between launches (IndexedDB, the service worker and its cache survive a close). */
async function launch() {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport,
    locale: 'en-US',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run',
      '--disable-component-update', '--disable-sync'],
  });
  await context.addInitScript(() => localStorage.setItem('hoyito.speed', 'instant'));
  const page = context.pages()[0] || await context.newPage();
  page.on('pageerror', (e) => { console.error('page error:', e.message); });
  return { context, page };
}

const steps = async (page) => (await page.locator('#moves li').count()) - 1;

/** Plays legal holes until `stop(page)` or the game is over; returns the steps shown. */
async function playOn(page, stop = async () => false) {
  for (let k = 0; k < 400; k += 1) {
    if (await page.locator('.summary').count() && /wins|draw/i.test(await page.textContent('.summary'))) break;
    if (await stop(page)) break;
    const legal = page.locator('.hole.legal');
    try {
      await legal.first().waitFor({ timeout: 5000 });
    } catch {
      continue; // the computer is moving, or the game just ended
    }
    const n = await steps(page);
    await legal.first().click();
    await page.waitForFunction((m) => document.querySelectorAll('#moves li').length - 1 > m || document.querySelector('.summary'), n, { timeout: 10000 });
  }
  return steps(page);
}

test('the app serves its manifest, icons, service worker and WebAssembly with the right types', async () => {
  const types = {
    '/manifest.webmanifest': 'application/manifest+json',
    '/sw.js': 'text/javascript',
    '/wasm/hoyito_wasm_bg.wasm': 'application/wasm',
    '/wasm/hoyito_wasm.js': 'text/javascript',
    '/local/engine-worker.js': 'text/javascript',
    '/icons/icon-192.png': 'image/png',
    '/precache.json': 'application/json',
  };
  for (const [path, type] of Object.entries(types)) {
    const res = await fetch(server.url + path);
    assert.equal(res.status, 200, path);
    assert.ok(res.headers.get('content-type').startsWith(type), `${path}: ${res.headers.get('content-type')}`);
  }
  const manifest = await (await fetch(`${server.url}/manifest.webmanifest`)).json();
  assert.equal(manifest.name, 'Hoyito');
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.display, 'standalone');
  assert.ok(manifest.icons.some((i) => i.sizes === '512x512' && i.purpose === 'maskable'));
  assert.ok(manifest.icons.some((i) => i.sizes === '192x192'));
  const { files } = await (await fetch(`${server.url}/precache.json`)).json();
  for (const f of ['/', '/app.js', '/wasm/hoyito_wasm_bg.wasm', '/local/engine-worker.js', '/manifest.webmanifest']) {
    assert.ok(files.includes(f), f);
  }
});

test('offline: a game against the computer on this device is started, saved, resumed after a restart and played to its end', async () => {
  let { context, page } = await launch();
  await page.goto(`${server.url}/`);
  // Installable: the manifest is linked and the service worker controls the app's scope.
  assert.equal(await page.getAttribute('link[rel="manifest"]', 'href'), '/manifest.webmanifest');
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  assert.equal(scope, `${server.url}/`);

  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('#new-game');
  // Without a connection: games on this device only, and the page says why.
  await page.waitForSelector('#offline-note:not([hidden])');
  assert.ok(await page.isChecked('input[name="where"][value="device"]'));
  assert.ok(await page.isDisabled('input[name="mode"][value="online"]'));
  assert.ok(await page.isDisabled('input[name="where"][value="server"]'));
  assert.deepEqual(await seriousViolations(page), [], 'new game page offline');

  await page.check('input[name="mode"][value="engine"]');
  await page.selectOption('select[name="variant"]', 'I');
  await page.selectOption('select[name="holes"]', '4');
  await page.selectOption('select[name="level"]', '2');
  await page.click('#start');
  await page.waitForURL(/\/g\/local[A-Za-z0-9]+$/);
  const url = page.url();
  await page.waitForSelector('#moves li');
  // A few moves, then the browser is closed.
  const played = await playOn(page, async (p) => (await steps(p)) >= 4);
  assert.ok(played >= 4, `steps played before closing: ${played}`);
  const before = await steps(page);
  // The last step is saved on the device before the browser closes.
  await page.waitForFunction(([gid, n]) => new Promise((resolve, reject) => {
    const open = indexedDB.open('hoyito');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const get = open.result.transaction('games').objectStore('games').get(gid);
      get.onerror = () => reject(get.error);
      get.onsuccess = () => { open.result.close(); resolve(!!get.result && get.result.steps.length >= n); };
    };
  }), [new URL(url).pathname.split('/g/')[1], before], { polling: 50, timeout: 10000 });
  await context.close();

  ({ context, page } = await launch());
  await context.setOffline(true);
  await page.goto(`${server.url}/games`);
  const link = page.locator(`a[href="${new URL(url).pathname}"]`);
  await link.waitFor({ timeout: 10000 });
  await link.click();
  await page.waitForURL(url);
  await page.waitForFunction((n) => document.querySelectorAll('#moves li').length - 1 >= n, before);
  assert.ok((await steps(page)) >= before, 'the saved moves are back');
  const end = await playOn(page);
  await page.waitForSelector('.summary');
  assert.match(await page.textContent('.summary'), /win|draw/i);
  assert.ok(end > before);
  // Server features say that they need a connection.
  await page.goto(`${server.url}/g/abcdefgh`);
  await page.waitForFunction(() => /connection/.test(document.getElementById('toast').textContent));
  await context.close();
});
