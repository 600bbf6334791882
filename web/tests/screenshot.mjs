// Takes screenshots of the UI for a human to look at (not a test), the
// README's among them:
//   node tests/screenshot.mjs OUTDIR   (e.g. ../docs/img)
import { startServer, launchBrowser, newPage, withMenu } from './helpers.mjs';

const out = process.argv[2] || '/tmp';
const server = await startServer();
const browser = await launchBrowser();
try {
  for (const [name, viewport, locale] of [['desktop', { width: 1366, height: 768 }, 'en-US'], ['phone', { width: 390, height: 844 }, 'es-ES']]) {
    const { context, page } = await newPage(browser, { viewport, locale, deviceScaleFactor: 1 });
    await page.goto(server.url);
    await page.screenshot({ path: `${out}/${name}-new.png`, fullPage: true });
    await page.check('input[value="engine"]');
    await page.selectOption('select[name="speed"]', 'instant').catch(() => {});
    await page.click('#start');
    await page.waitForSelector('.hole.legal');
    await withMenu(page, (p) => p.selectOption('#speed', 'fast'));
    for (let k = 0; k < 4; k++) {
      await page.waitForSelector('.hole.legal', { timeout: 20000 });
      const before = await page.locator('#moves li').count();
      await page.locator('.hole.legal').first().click();
      // The move is in the list once it is played (and its sowing drawn).
      await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, before, { timeout: 20000 });
    }
    await page.waitForSelector('.hole.legal', { timeout: 20000 });
    await page.screenshot({ path: `${out}/${name}-game.png`, fullPage: true });
    await page.goto(`${server.url}/games`);
    await page.waitForSelector('#lobby h2');
    await page.screenshot({ path: `${out}/${name}-games.png`, fullPage: true });
    await page.goto(`${server.url}/how-to-play`);
    await page.waitForSelector('.help .board');
    await page.screenshot({ path: `${out}/${name}-how-to-play.png` });
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  server.cleanup();
}
