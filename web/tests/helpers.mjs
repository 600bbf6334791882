// Shared helpers of the end-to-end tests: start the real `hoyito serve`
// binary on a free loopback port with a temporary database, and launch
// Debian's chromium through playwright-core.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
 * port and a database in a new temporary directory); resolves once it
 * prints its address.
 */
export function startServer(db, addr = '127.0.0.1:0') {
  const dir = db ? null : mkdtempSync(join(tmpdir(), 'hoyito-e2e-'));
  const dbPath = db || join(dir, 'test.db');
  const proc = spawn(binary, ['serve', '--addr', addr, '--db', dbPath], { stdio: ['ignore', 'pipe', 'pipe'] });
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

/** A fresh browser context with the given locale and viewport. */
export async function newPage(browser, opts = {}) {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 }, ...opts });
  const page = await context.newPage();
  page.on('pageerror', (e) => { console.error('page error:', e.message); });
  return { context, page };
}
