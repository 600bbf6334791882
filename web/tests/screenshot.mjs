// Takes screenshots of the UI for a human to look at (not a test):
//   node tests/screenshot.mjs OUTDIR
import { startServer, launchBrowser, newPage } from './helpers.mjs';

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
    await page.selectOption('#speed', 'fast');
    for (let k = 0; k < 4; k++) {
      await page.waitForSelector('.hole.legal', { timeout: 20000 });
      await page.locator('.hole.legal').first().click();
      await page.waitForTimeout(1500);
    }
    await page.waitForSelector('.hole.legal', { timeout: 20000 });
    await page.screenshot({ path: `${out}/${name}-game.png`, fullPage: true });
    await page.goto(`${server.url}/rules`);
    await page.waitForSelector('#rules h1');
    await page.screenshot({ path: `${out}/${name}-rules.png` });
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  server.cleanup();
}
