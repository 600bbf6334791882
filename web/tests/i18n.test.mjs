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

// Every refusal a player may read is in their language: the error codes
// docs/API.md lists, and those of a game's room (hoyito-room's RoomError,
// on the server and on the device), each have a message in every catalogue
// (ui.js errorText shows it instead of the server's English text).
test('every documented API error code has a message in English, Spanish and Kreyòl', once, async () => {
  const { readFile } = await import('node:fs/promises');
  const api = await readFile(new URL('../../docs/API.md', import.meta.url), 'utf8');
  const table = api.split('\n| status | `code` | when |')[1].split('\n\n')[0];
  const codes = new Set();
  for (const row of table.split('\n').filter((l) => l.startsWith('|'))) {
    for (const m of row.split('|')[2].matchAll(/`([a-z_]+)`/g)) codes.add(m[1]);
  }
  const room = await readFile(new URL('../../crates/hoyito-room/src/error.rs', import.meta.url), 'utf8');
  const code = room.slice(room.indexOf('pub fn code('));
  for (const m of code.slice(0, code.indexOf('\n    }\n')).matchAll(/=> "([a-z_]+)"/g)) codes.add(m[1]);
  assert.ok(codes.size > 50 && codes.has('invalid_name') && codes.has('bad_step'), [...codes].join(' '));
  for (const [lang, cat] of Object.entries(CATALOGUES)) {
    const missing = [...codes].filter((c) => !(typeof cat[`err.${c}`] === 'string' && cat[`err.${c}`].trim()));
    assert.deepEqual(missing, [], `${lang} lacks messages for these error codes`);
  }
});
