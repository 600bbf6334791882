// End-to-end tests of what the page takes from the browser and the device:
// the language (navigator.languages, then the user's pick), dark mode and
// reduced motion (the system's settings), and a phone's screen (touch
// targets of 44 px, no sideways scrolling). Run with tests/run.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, openPage, waitForSteps, callApi, once,
} from './helpers.mjs';

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
const api = (method, path, body, token) => callApi(server.url, method, path, body, token);
const PHONE = { width: 390, height: 844 };

/** A hot-seat game through the API, and the storage entry that seats this browser in it. */
async function hotseat(rules) {
  const c = await api('POST', '/api/games', { mode: 'hotseat', rules });
  return { id: c.id, game: c.game, token: c.token, storage: { [`hoyito.seat.${c.id}`]: JSON.stringify({ token: c.token, seat: 'both' }) } };
}

test('the language comes from the browser the first time, then from the choice made', once, async () => {
  const { id, storage } = await hotseat({ variant: 'I', holes: 6 });
  for (const [locale, code, nav, hole] of [
    ['ht', 'ht', 'Nouvo pati', 'Sid, twou 1, grenn: 4'],
    ['ht-HT', 'ht', 'Nouvo pati', 'Sid, twou 1, grenn: 4'],
    ['es-ES', 'es', 'Nueva partida', 'Sur, casita 1, semillas: 4'],
    ['en-US', 'en', 'New game', 'South hole 1, seeds: 4'],
    ['de-DE', 'en', 'New game', 'South hole 1, seeds: 4'],
  ]) {
    const { context, page } = await open(`/g/${id}`, { locale, storage });
    try {
      await page.waitForSelector('.hole.legal');
      assert.equal(await page.textContent('nav a[href="/"]'), nav, locale);
      assert.equal(await page.getAttribute('html', 'lang'), code, locale);
      assert.equal(await page.getAttribute('.hole[data-hole="0"]', 'aria-label'), hole, locale);
      assert.equal(await page.getAttribute(`[data-lang="${code}"]`, 'aria-pressed'), 'true', locale);
    } finally {
      await context.close();
    }
  }
  // A Spanish browser switched to Kreyòl stays in Kreyòl, after a reload and on other pages.
  const { context, page } = await open('/', { locale: 'es-ES' });
  try {
    await page.waitForSelector('#new-game');
    assert.match(await page.textContent('#app h1'), /Nueva partida/);
    await page.click('[data-lang="ht"]');
    assert.match(await page.textContent('#app h1'), /Nouvo pati/);
    assert.match(await page.textContent('#new-game'), /Kont òdinatè a/);
    assert.equal(await page.evaluate(() => localStorage.getItem('hoyito.lang')), 'ht');
    await page.reload();
    await page.waitForSelector('#new-game');
    assert.match(await page.textContent('#app h1'), /Nouvo pati/);
    await page.click('nav a[href="/games"]');
    await page.waitForSelector('table.games, #list p');
    assert.match(await page.textContent('#app h1'), /Pati yo/);
    assert.equal(await page.getAttribute('html', 'lang'), 'ht');
  } finally {
    await context.close();
  }
});

/** The relative luminance (0 black … 1 white) of a CSS rgb() colour. */
function luminance(css) {
  const [r, g, b] = css.match(/\d+(\.\d+)?/g).slice(0, 3).map((x) => {
    const c = Number(x) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

test('dark mode follows the system setting', async () => {
  const { id, storage } = await hotseat({ variant: 'II', holes: 6 });
  for (const [colorScheme, dark] of [['dark', true], ['light', false]]) {
    for (const path of ['/', `/g/${id}`]) {
      const { context, page } = await open(path, { colorScheme, storage });
      try {
        await page.waitForSelector(path === '/' ? '#new-game' : '.hole.legal');
        const colours = await page.evaluate(() => ({
          page: getComputedStyle(document.documentElement).backgroundColor,
          text: getComputedStyle(document.body).color,
          card: getComputedStyle(document.querySelector('.card, .moves-panel')).backgroundColor,
          field: getComputedStyle(document.querySelector('#app select')).backgroundColor,
        }));
        for (const part of ['page', 'card', 'field']) {
          assert.equal(luminance(colours[part]) < 0.1, dark, `${colorScheme} ${path}: ${part} is ${colours[part]}`);
        }
        assert.equal(luminance(colours.text) > 0.5, dark, `${colorScheme} ${path}: text is ${colours.text}`);
      } finally {
        await context.close();
      }
    }
  }
});

test('with reduced motion a move is shown at once, without its sowing or a shake', once, async () => {
  for (const [reducedMotion, animated] of [['reduce', false], ['no-preference', true]]) {
    const { id, storage } = await hotseat({ variant: 'II', holes: 6 });
    const { context, page } = await open(`/g/${id}`, { reducedMotion, storage: { ...storage, 'hoyito.speed': 'slow' }, animate: true });
    try {
      await page.waitForSelector('.hole.legal');
      // Record every text of the lap counter, and every board the holes
      // show (the counts, each time one changes).
      await page.evaluate(() => {
        const hud = document.getElementById('hud');
        window.laps = [];
        new MutationObserver(() => window.laps.push(hud.textContent)).observe(hud, { childList: true, characterData: true, subtree: true });
        const counts = () => [...document.querySelectorAll('.hole-text .count')].map((e) => e.textContent).join(',');
        window.boards = [counts()];
        new MutationObserver(() => {
          const now = counts();
          if (now !== window.boards[window.boards.length - 1]) window.boards.push(now);
        }).observe(document.getElementById('board-wrap'), { childList: true, characterData: true, subtree: true });
      });
      // Hole 1 holds 4 seeds: sown one by one, the board passes through
      // several counts on its way to the position after the move.
      await page.click('.hole[data-hole="0"]');
      await page.waitForSelector('.hole.legal');
      await waitForSteps(page, 1);
      const laps = await page.evaluate(() => window.laps.filter((s) => /Lap/.test(s)));
      const boards = await page.evaluate(() => window.boards);
      if (animated) {
        assert.ok(laps.length > 0, `${reducedMotion}: the lap counter is shown`);
        assert.ok(boards.length > 3, `${reducedMotion}: the seeds are sown one by one: ${boards.join(' | ')}`);
      } else {
        assert.deepEqual(laps, [], `${reducedMotion}: the sowing is not shown`);
        assert.equal(boards.length, 2, `${reducedMotion}: the board goes to the position after the move at once: ${boards.join(' | ')}`);
        // A refused hole does not shake.
        await page.locator('.hole[data-hole="0"]').click({ force: true });
        await page.waitForSelector('.hole[data-hole="0"].refused');
        const anim = await page.$eval('.hole[data-hole="0"] .hole-body', (e) => getComputedStyle(e).animationName);
        assert.equal(anim, 'none');
      }
    } finally {
      await context.close();
    }
  }
});

/** Controls of the page (buttons, selects, holes) smaller than 44×44 px; `[]` if none. */
// Buttons are a finger's size, 44 px; holes at least 24 px (WCAG 2.2's least
// target): a long row is drawn smaller rather than push the page past the screen.
const smallTargets = (page) => page.evaluate(() => [...document.querySelectorAll('button, select, .button, .hole')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map((e) => ({ e, r: e.getBoundingClientRect(), least: e.classList.contains('hole') ? 24 : 44 }))
  .filter(({ r, least }) => r.width < least || r.height < least)
  .map(({ e, r }) => `${e.id || e.className?.baseVal || e.className || e.tagName} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`));

/** How far the page scrolls sideways, in px (0 when it does not). */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('on a phone, every board from 2×4 to 2×12 fits the width, with buttons of 44 px and holes of 24 px at least', once, async () => {
  for (let holes = 4; holes <= 12; holes++) {
    const { id, storage } = await hotseat({ variant: 'II', holes, direction: 'per_move' });
    const { context, page } = await open(`/g/${id}`, { viewport: PHONE, storage });
    try {
      await page.waitForSelector('.hole.legal');
      assert.equal(await page.locator('.hole').count(), 2 * holes);
      assert.equal(await sideways(page), 0, `2×${holes}: the page scrolls sideways`);
      assert.deepEqual(await smallTargets(page), [], `2×${holes}: small touch targets`);
      // And a hole plays at a touch (the direction chosen by the hole).
      await page.locator('.hole.legal').first().click();
      await page.click('#dir button[data-dir="L"]');
      await waitForSteps(page, 1);
    } finally {
      await context.close();
    }
  }
});

test('on a phone, no page scrolls sideways and the header\'s buttons are 44 px', once, async () => {
  await hotseat({ variant: 'III', holes: 12 });
  // The list of games shows public games only.
  await api('POST', '/api/games', { mode: 'online', public: true, rules: { variant: 'III', holes: 12 } });
  for (const locale of ['en-US', 'es-ES', 'ht']) {
    for (const [path, ready] of [['/', '#new-game'], ['/games', 'table.games'], ['/rules', '#rules h2'], ['/nowhere', '#app h1']]) {
      const { context, page } = await open(path, { viewport: PHONE, locale });
      try {
        await page.waitForSelector(ready);
        assert.equal(await sideways(page), 0, `${path} in ${locale} scrolls sideways`);
        assert.deepEqual(await smallTargets(page), [], `${path} in ${locale}: small touch targets`);
      } finally {
        await context.close();
      }
    }
  }
});
