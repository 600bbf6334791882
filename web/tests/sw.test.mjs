// The app under its service worker, after the cache was refreshed in the
// background: every module loads once, from the build's address, and the
// language switch translates the whole page (one copy of the translations).
// Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, viewport } from './helpers.mjs';

let server;
let profile;

before(async () => {
  server = await startServer();
  profile = mkdtempSync(join(tmpdir(), 'hoyito-sw-'));
});

after(async () => {
  await server?.stop();
  server?.cleanup();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test('under the service worker every module loads once, from the build\'s address, and a language switch translates the whole page', async () => {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport,
    locale: 'en-US',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = context.pages()[0] || await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const scripts = [];
    page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname); });
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller);
    // The background refresh stores the files as fetched at the build's
    // address (/v/<build>/…) under their plain paths: wait until it has.
    await page.reload();
    await page.waitForSelector('#new-game');
    await page.waitForFunction(async () => {
      const r = await (await caches.open('hoyito-app')).match('/router.js');
      return !!r && r.url.includes('/v/');
    });
    for (let i = 0; i < 2; i += 1) {
      scripts.length = 0;
      await page.reload();
      await page.waitForSelector('#new-game');
      const modules = scripts.filter((p) => p !== '/sw.js');
      assert.ok(modules.length > 10, `the app's modules were requested (${modules.length})`);
      const outside = modules.filter((p) => !/^\/v\/[^/]+\//.test(p));
      assert.deepEqual(outside, [], 'every module at the build\'s address');
      assert.equal(new Set(modules).size, modules.length, `no module twice: ${modules}`);
    }
    await page.click('[data-lang="es"]');
    assert.match(await page.textContent('#app h1'), /Nueva partida/);
    assert.match(await page.textContent('#new-game'), /Contra la computadora/);
    assert.match(await page.textContent('nav a[href="/games"]'), /Partidas/);
    await page.click('[data-lang="ht"]');
    assert.match(await page.textContent('#app h1'), /Nouvo pati/);
    assert.match(await page.textContent('#new-game'), /Kont òdinatè a/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
