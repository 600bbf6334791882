// The translated rules (web/rules.es.md, web/rules.ht.md) follow the
// authoritative English text (web/rules.md): the same sections 1–6 and
// variant subsections, the same conventions (◆) in each section, the
// options in code spelling, a note that the English text is authoritative
// with a link to it, and nothing of the developers' §7. Runs in node,
// without a browser or server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { once } from './helpers.mjs';

const read = (name) => readFileSync(new URL(`../${name}`, import.meta.url), 'utf8');
const english = read('rules.md');
const TRANSLATIONS = { es: read('rules.es.md'), ht: read('rules.ht.md') };

/** The `## N.` sections of a text by number, each with its text (headings and body). */
function sections(text) {
  const out = new Map();
  let current = null;
  for (const line of text.split('\n')) {
    const m = /^## (\d+)\. /.exec(line);
    if (m) {
      current = m[1];
      out.set(current, '');
    } else if (/^## /.test(line)) {
      current = null;
    }
    if (current) out.set(current, out.get(current) + line + '\n');
  }
  return out;
}

const PLAYER_SECTIONS = ['1', '2', '3', '4', '5', '6'];
const diamonds = (s) => [...s].filter((c) => c === '◆').length;
const variants = (s) => [...s.matchAll(/^### (Hoyito I{1,3}) /gm)].map((m) => m[1]);
const options = (s) => [...s.matchAll(/`([^`]*(?:_|=)[^`]*)`/g)].map((m) => m[1]).sort();
const numbered = (s) => [...s.matchAll(/^(\d+)\. /gm)].map((m) => m[1]);

test('each translation has the English sections 1–6, the variants, every convention and every option', once, () => {
  const en = sections(english);
  assert.deepEqual([...en.keys()].slice(0, 6), PLAYER_SECTIONS, 'the English sections');
  assert.ok(diamonds(english) > 5, 'the English text marks its conventions');
  for (const [lang, text] of Object.entries(TRANSLATIONS)) {
    const tr = sections(text);
    assert.deepEqual([...tr.keys()], PLAYER_SECTIONS, `${lang}: sections 1–6, in order, and no others`);
    assert.equal((text.match(/^# /gm) || []).length, 1, `${lang}: one title`);
    for (const n of PLAYER_SECTIONS) {
      assert.equal(diamonds(tr.get(n)), diamonds(en.get(n)), `${lang} §${n}: the conventions (◆)`);
      assert.deepEqual(variants(tr.get(n)), variants(en.get(n)), `${lang} §${n}: the variant subsections`);
      assert.deepEqual(options(tr.get(n)), options(en.get(n)), `${lang} §${n}: the options in code spelling`);
      assert.deepEqual(numbered(tr.get(n)), numbered(en.get(n)), `${lang} §${n}: the numbered items`);
    }
  }
  assert.deepEqual(variants(en.get('3')), ['Hoyito I', 'Hoyito II', 'Hoyito III']);
});

test('each translation says that the English text is authoritative, links to it, and leaves out the machine-readable state', once, () => {
  for (const [lang, text] of Object.entries(TRANSLATIONS)) {
    const body = text.split('\n## ')[0];
    assert.match(body, /\]\(\/rules\?lang=en\)/, `${lang}: the note before §1 links to the English text`);
    assert.doesNotMatch(text, /`(to_move|holes_per_row|captured|winner)`/, `${lang}: no machine-readable state`);
    assert.doesNotMatch(text, /seeds\//, `${lang}: no file references`);
  }
});
