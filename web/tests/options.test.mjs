// The New game form's rules options are made from the core's table
// (`rulesOptions()` of the WebAssembly module): one control per option,
// named as in the API, with its values and default; a game started from
// it has the rules chosen. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, openPage, callApi } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const wasm = await import(join(here, '..', 'wasm', 'hoyito_wasm.js'));
wasm.initSync({ module: readFileSync(join(here, '..', 'wasm', 'hoyito_wasm_bg.wasm')) });
const OPTIONS = wasm.rulesOptions();

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  server?.cleanup();
});

test('the form has one control per rules option, with the table\'s values and defaults', async () => {
  const { context, page } = await openPage(browser, `${server.url}/`);
  try {
    await page.waitForSelector('#new-game');
    for (const o of OPTIONS) {
      if (o.type === 'flag') {
        assert.equal(await page.isChecked(`input[type="checkbox"][name="${o.name}"]`), o.default, o.name);
      } else if (o.type === 'choice') {
        const values = await page.$$eval(`select[name="${o.name}"] option`, (els) => els.map((e) => e.value));
        assert.deepEqual(values, o.values, o.name);
        assert.equal(await page.inputValue(`select[name="${o.name}"]`), o.default, o.name);
      } else {
        assert.equal(await page.inputValue(`[name="${o.name}"]`), String(o.default), o.name);
      }
    }
    const holes = await page.$$eval('select[name="holes"] option', (els) => els.map((e) => Number(e.value)));
    const { min, max } = OPTIONS.find((o) => o.name === 'holes');
    assert.deepEqual([holes[0], holes.at(-1), holes.length], [min, max, max - min + 1]);
    const seeds = OPTIONS.find((o) => o.name === 'seeds');
    assert.deepEqual(
      [await page.getAttribute('input[name="seeds"]', 'min'), await page.getAttribute('input[name="seeds"]', 'max')],
      [String(seeds.min), String(seeds.max)],
    );
    // A game started from the form has the rules chosen.
    await page.check('input[name="mode"][value="hotseat"]');
    await page.click('summary');
    await page.selectOption('select[name="direction"]', 'per_move');
    await page.selectOption('select[name="capture_side"]', 'opponent');
    await page.check('input[name="skip_origin"]');
    await page.click('#start');
    await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
    const id = page.url().split('/g/')[1];
    const body = await callApi(server.url, 'GET', `/api/games/${id}`);
    assert.equal(body.rules.direction, 'per_move');
    assert.equal(body.rules.capture_side, 'opponent');
    assert.equal(body.rules.skip_origin, true);
  } finally {
    await context.close();
  }
});
