// Shared helpers of the end-to-end tests: start the real `hoyito serve`
// binary on a free loopback port with a temporary database, and launch
// Debian's chromium through playwright-core.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');

/** Path of the hoyito binary: $HOYITO_BIN, else target/release/hoyito. */
export const binary = process.env.HOYITO_BIN || join(process.env.CARGO_TARGET_DIR || join(repo, 'target'), 'release', 'hoyito');

/**
 * Starts `hoyito serve --addr <addr> --db <db>` (default: a free loopback
 * port and a database in a new temporary directory), with `extra`
 * arguments after the others; resolves once it prints its address.
 */
export function startServer(db, addr = '127.0.0.1:0', extra = []) {
  const dir = db ? null : mkdtempSync(join(tmpdir(), 'hoyito-e2e-'));
  const dbPath = db || join(dir, 'test.db');
  // The tests drive games through the API from one address as fast as they
  // can: no rate limits per address (their own tests are in the server crate).
  const limits = [
    '--create-rate', '0', '--create-quota', '0', '--move-rate', '0', '--hint-rate', '0', '--chat-rate', '0',
    '--offer-rate', '0', '--join-rate', '0', '--open-seats-per-ip', '0', '--offer-cooldown', '0',
    // Every page of a test is on one address, often several on one game.
    '--max-websockets-per-ip-per-game', '0',
  ];
  const proc = spawn(binary, ['serve', '--no-default-tables', '--addr', addr, '--db', dbPath, ...limits, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 15000);
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}: ${stderr}`)); });
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[\d.:]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        proc.removeAllListeners('exit');
        resolve({
          url: m[1], db: dbPath, proc,
          async stop() {
            if (proc.exitCode !== null) return;
            const done = new Promise((r) => proc.once('exit', r));
            proc.kill('SIGTERM');
            const killer = setTimeout(() => proc.kill('SIGKILL'), 5000);
            await done;
            clearTimeout(killer);
          },
          cleanup() { if (dir) rmSync(dir, { recursive: true, force: true }); },
        });
      }
    });
  });
}

/**
 * Launches headless Debian chromium (never a downloaded browser). Playwright
 * gives every launch a fresh temporary user-data-dir of its own (it refuses
 * a --user-data-dir argument to launch()), removed when the browser closes.
 */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
      '--no-first-run', '--disable-component-update', '--disable-sync',
    ],
  });
}

/**
 * The screen size the tests run at unless one sets its own:
 * $HOYITO_E2E_VIEWPORT as WIDTHxHEIGHT, by default a desktop's 1366x768
 * (run.sh runs the suite again at a phone's 390x844).
 */
export const viewport = (() => {
  const m = /^(\d+)x(\d+)$/.exec(process.env.HOYITO_E2E_VIEWPORT || '1366x768');
  if (!m) throw new Error(`HOYITO_E2E_VIEWPORT must be WIDTHxHEIGHT, not ${process.env.HOYITO_E2E_VIEWPORT}`);
  return { width: Number(m[1]), height: Number(m[2]) };
})();

/**
 * The options of a test that does not depend on the suite's screen size (it
 * sets its own, or it checks what no screen size changes): it runs once, in
 * the run at a phone's 390x844 (where run.sh runs every test file) or when
 * no size is set; the runs at other sizes list it as skipped.
 */
export const once = {
  skip: process.env.HOYITO_E2E_VIEWPORT && process.env.HOYITO_E2E_VIEWPORT !== '390x844'
    ? 'the same at every screen size: run at 390x844' : false,
};


/**
 * A fresh browser context with the given locale and viewport. Its service
 * worker is blocked unless `serviceWorkers: 'allow'`: installing it fetches
 * and caches every file of the app again in each fresh context, a fifth to
 * a third of the processor time a page's first load takes; the tests of the
 * offline app and of the service worker allow it.
 */
export async function newPage(browser, opts = {}) {
  const context = await browser.newContext({ locale: 'en-US', viewport, serviceWorkers: 'block', ...opts });
  const page = await context.newPage();
  page.on('pageerror', (e) => { console.error('page error:', e.message); });
  return { context, page };
}

/**
 * Opens a page of the app at `url` in a fresh context, with animations off
 * unless `animate`, and the `storage` entries in its localStorage; other
 * options go to the context (locale, viewport).
 */
export async function openPage(browser, url, opts = {}) {
  const { animate, storage = {}, ...ctxOpts } = opts;
  const { context, page } = await newPage(browser, ctxOpts);
  const entries = { ...(animate ? {} : { 'hoyito.speed': 'instant' }), ...storage };
  await context.addInitScript((kv) => {
    for (const [k, v] of Object.entries(kv)) localStorage.setItem(k, v);
  }, entries);
  await page.goto(url);
  return { context, page };
}

/** Fills the New game form at `base` and starts; resolves to the game id. */
export async function createGame(page, base, { mode, holes = '6', variant = 'II', level = '1', side = 'south' }) {
  await page.goto(`${base}/`);
  await page.check(`input[name="mode"][value="${mode}"]`);
  await page.selectOption('select[name="variant"]', variant);
  await page.selectOption('select[name="holes"]', holes);
  if (mode === 'engine') await page.selectOption('select[name="level"]', level);
  if (mode !== 'hotseat') await page.selectOption('select[name="side"]', side);
  await page.click('#start');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await page.waitForSelector('#moves li');
  return page.url().split('/g/')[1];
}

/** Steps shown in the list of moves (the start position not counted). */
export const stepCount = async (page) => (await page.locator('#moves li').count()) - 1;

/** The counts shown in the holes. */
export const boardCounts = (page) => page.$$eval('.hole-text .count', (els) => els.map((e) => e.textContent));

/** Waits until the list of moves shows at least `n` steps. */
export async function waitForSteps(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#moves li').length - 1 >= k, n, { timeout: 15000 });
}

/** Calls the API of the server at `base` from node; JSON in, JSON (or text) out. */
export async function callApi(base, method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (res.headers.get('content-type') || '').includes('json') ? JSON.parse(text) : text;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical axe-core violations of the page as it is now,
 * one line each. axe is evaluated by the test driver, not added as a
 * <script>: the page's Content-Security-Policy allows no inline script.
 */
export async function seriousViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(axeSource);
  // The page as it settles: a fade (a toast going away) ended, not caught
  // half-way with half its contrast.
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter((a) => a instanceof CSSTransition)
    .map((a) => a.finished.catch(() => {}))));
  const { violations } = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

/**
 * Waits until `check()` (async, asked again every few milliseconds) gives a
 * truthy value, and returns it; fails with `what` after `timeout` ms. For
 * conditions only the server's API can tell (a search stopped, an analysis
 * done); what the page shows is waited for with page.waitForFunction.
 */
export async function waitUntil(check, what, timeout = 30000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Does `action(page)` with the game page's menu (flip, speed, download,
 * share, chat) open: on a phone it is behind its button, which is pressed
 * first and closed again after; on a wide screen it is always in view.
 */
export async function withMenu(page, action) {
  const more = page.locator('#more');
  const folded = await more.isVisible();
  if (folded && (await more.getAttribute('aria-expanded')) !== 'true') await more.click();
  try {
    return await action(page);
  } finally {
    if (folded && (await more.getAttribute('aria-expanded')) === 'true') await more.click();
  }
}
