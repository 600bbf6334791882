// The catalogues of i18n.js: every language has every key, with the same
// placeholders. Runs in node, without a browser or server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from './helpers.mjs';

// i18n.js picks its language when loaded: give it a browser's globals.
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.navigator = { languages: ['en-US'] };
const { CATALOGUES, LANGUAGES } = await import('../i18n.js');

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every catalogue has every English key with the same placeholders, and nothing else', once, () => {
  assert.deepEqual(Object.keys(CATALOGUES).sort(), ['en', 'es', 'ht']);
  assert.deepEqual(Object.keys(LANGUAGES).sort(), ['en', 'es', 'ht']);
  const en = CATALOGUES.en;
  for (const [code, cat] of Object.entries(CATALOGUES)) {
    assert.deepEqual(Object.keys(cat).filter((k) => !(k in en)), [], `${code} has keys English lacks`);
    for (const [key, text] of Object.entries(en)) {
      assert.ok(typeof cat[key] === 'string' && cat[key].trim(), `${code} lacks ${key}`);
      assert.deepEqual(placeholders(cat[key]), placeholders(text), `${code} ${key}: placeholders`);
    }
  }
});

test('the Kreyòl catalogue is translated, not copied from English', once, () => {
  const same = Object.keys(CATALOGUES.en).filter((k) => CATALOGUES.ht[k] === CATALOGUES.en[k]
    && /[a-z]{4,}/i.test(CATALOGUES.en[k].replace(/\{\w+\}|Hoyito/g, '')));
  // Words that are the same in both languages.
  const shared = ['games.match'];
  assert.deepEqual(same.filter((k) => !shared.includes(k)), []);
});
