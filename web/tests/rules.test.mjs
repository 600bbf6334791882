// End-to-end tests of the Rules page in its three languages: English is the
// authoritative text with its §7 for developers folded away, Spanish and
// Kreyòl are translations that link to the English text, the language
// switch shows the rules in the new language, and no serious accessibility
// violation. Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, seriousViolations } from './helpers.mjs';

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

const open = (path, opts) => openPage(browser, server.url + path, opts);

const LANGS = {
  en: {
    locale: 'en-US',
    title: 'Hoyito — the rules this project implements',
    rule: "A move takes all seeds from one of the mover's own non-empty open holes",
  },
  es: {
    locale: 'es-ES',
    title: 'Hoyito — las reglas del juego',
    rule: 'Una jugada toma todas las semillas de uno de los hoyos abiertos y no vacíos',
    english: 'Leer el texto original en inglés, el que manda',
  },
  ht: {
    locale: 'ht',
    title: 'Hoyito (Kay) — règ jwèt la',
    rule: 'Yon kou pran tout grenn ki nan youn nan twou louvri jwè a ki pa vid',
    english: 'Li tèks orijinal an angle a, se li ki fè otorite',
  },
};

/** Waits until the rules article shows the text of language `code` (its title). */
const shown = (page, code) => page.waitForFunction(
  ([title, lang]) => {
    const a = document.getElementById('rules');
    return a && a.lang === lang && a.querySelector('h1')?.textContent === title;
  },
  [LANGS[code].title, code],
);

test('the Rules page in English, Spanish and Kreyòl: the text of the language, §7 folded away in English, the English text a link away', async () => {
  for (const [code, l] of Object.entries(LANGS)) {
    const { context, page } = await open('/rules', { locale: l.locale });
    try {
      await shown(page, code);
      assert.equal(await page.getAttribute('html', 'lang'), code);
      assert.ok((await page.textContent('#rules')).includes(l.rule), `${code}: a rule of §2`);
      // Sections 1–6 for players, visible.
      const visible = await page.$$eval('#rules h2', (hs) => hs.filter((h) => h.checkVisibility()).map((h) => h.textContent));
      assert.deepEqual(visible.map((h) => h.split(' ')[0]), ['1.', '2.', '3.', '4.', '5.', '6.'], `${code}: ${visible}`);
      assert.equal(await page.locator('#rules h3').count(), 3);
      if (code === 'en') {
        // §7 is in the page, in a closed <details> for developers.
        assert.equal(await page.locator('#rules details').count(), 1);
        assert.equal(await page.textContent('#rules details summary'), 'For developers');
        assert.equal(await page.$eval('#rules details', (d) => d.open), false);
        assert.match(await page.textContent('#rules details h2'), /^7\. Machine-readable state/);
        assert.equal(await page.isVisible('#rules details h2'), false);
        assert.equal(await page.locator('#rules-english').count(), 0);
        await page.click('#rules details summary');
        await page.waitForSelector('#rules details h2', { state: 'visible' });
      } else {
        assert.equal(await page.locator('#rules details').count(), 0);
        assert.doesNotMatch(await page.textContent('#rules'), /Machine-readable|to_move/);
        // The link above the text, and the note's link inside it.
        assert.equal(await page.textContent('#rules-english'), l.english);
        assert.equal(await page.getAttribute('#rules-english', 'href'), '/rules?lang=en');
        assert.ok(await page.locator('#rules p a[href="/rules?lang=en"]').count() >= 1, `${code}: the note links to the English text`);
      }
      assert.deepEqual(await seriousViolations(page), [], code);
      if (code !== 'en') {
        // The English text under the page's language, and back.
        await page.click('#rules-english');
        await shown(page, 'en');
        assert.equal(new URL(page.url()).search, '?lang=en');
        assert.equal(await page.getAttribute('html', 'lang'), code);
        assert.equal(await page.locator('#rules details').count(), 1);
        assert.deepEqual(await seriousViolations(page), [], `${code}: the English text`);
        await page.click('#rules-translation');
        await shown(page, code);
        assert.equal(new URL(page.url()).search, '');
      }
    } finally {
      await context.close();
    }
  }
});

test('the language switch shows the rules in the new language', async () => {
  const { context, page } = await open('/rules', { locale: 'en-US' });
  try {
    await shown(page, 'en');
    await page.click('[data-lang="es"]');
    await shown(page, 'es');
    await page.click('[data-lang="ht"]');
    await shown(page, 'ht');
    assert.ok((await page.textContent('#rules')).includes(LANGS.ht.rule));
    // On the English text asked for from a translation, a switch shows the new language.
    await page.click('#rules-english');
    await shown(page, 'en');
    await page.click('[data-lang="es"]');
    await shown(page, 'es');
    assert.equal(new URL(page.url()).search, '');
    await page.click('[data-lang="en"]');
    await shown(page, 'en');
    assert.equal(await page.locator('#rules-english').count(), 0);
  } finally {
    await context.close();
  }
});
