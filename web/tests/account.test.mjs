// Accounts in the browser: sign up (the recovery codes shown once), sign
// out, sign in again, and "My games" on another device where the same
// account signs in, which opens the game with its seat, as does the game's
// link on a third; at the suite's
// screen size (desktop and phone), with axe-core. And the Account page on
// a small phone in every language, without sideways scrolling.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, seriousViolations, viewport, once } from './helpers.mjs';

let srv;
let browser;
before(async () => { srv = await startServer(undefined, '127.0.0.1:0', ['--sign-in-rate', '0']); browser = await launchBrowser(); });
after(async () => { await browser.close(); await srv.stop(); srv.cleanup(); });

const PASSWORD = 'tambor-lluvia-semilla-42';

/** Whether the page scrolls sideways. */
const scrollsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Signs in on the Account page (signed out) as `username`. */
async function signIn(page, username) {
  const form = page.locator('#sign-in');
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForSelector('#signed-in-as');
}

test('sign up, sign out, sign in, and My games on another device', async () => {
  const username = `Ana${viewport.width}`;
  const { context, page } = await openPage(browser, `${srv.url}/`);
  await page.getByRole('link', { name: 'Account' }).click();
  await page.waitForSelector('#sign-up');
  assert.deepEqual(await seriousViolations(page), []);
  assert.equal(await scrollsSideways(page), false);
  // A password too easy to guess is refused, in words.
  const up = page.locator('#sign-up');
  await up.getByLabel('Username').fill(username);
  await up.getByLabel('Password').fill('password1');
  await up.getByRole('button', { name: 'Create an account' }).click();
  await page.waitForFunction(() => /too easy to guess/.test(document.getElementById('toast').textContent));
  await up.getByLabel('Password').fill(PASSWORD);
  await up.getByRole('button', { name: 'Create an account' }).click();
  // The recovery codes, once.
  await page.waitForSelector('#codes');
  const codes = await page.locator('ol.codes code').allTextContents();
  assert.equal(codes.length, 8);
  assert.ok(codes.every((c) => /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/.test(c)), codes.join(' '));
  assert.deepEqual(await seriousViolations(page), []);
  assert.equal(await scrollsSideways(page), false);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.waitForSelector('#signed-in-as');
  assert.equal(await page.textContent('#signed-in-as'), `Signed in as ${username}`);
  // The session cookie is out of the page's reach.
  assert.equal(await page.evaluate(() => document.cookie), '');
  const [cookie] = await context.cookies();
  assert.equal(cookie.name, 'hoyito_session');
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Strict');
  assert.deepEqual(await seriousViolations(page), []);

  // A game made while signed in is the account's.
  await page.goto(`${srv.url}/`);
  await page.check('input[name="mode"][value="online"]');
  await page.click('#start');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  const id = page.url().split('/g/')[1];

  // Sign out, and in again.
  await page.goto(`${srv.url}/account`);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForSelector('#sign-in');
  assert.equal((await context.cookies()).length, 0, 'the cookie is gone');
  await signIn(page, username);
  assert.deepEqual(await seriousViolations(page), []);

  // Another device: signed in, My games lists the game and opens it with its seat.
  const other = await openPage(browser, `${srv.url}/account`);
  await other.page.waitForSelector('#sign-in');
  await signIn(other.page, username.toLowerCase());
  await other.page.getByRole('link', { name: 'My games', exact: true }).click();
  const take = other.page.locator(`#lobby [data-take="${id}"]`);
  await take.click();
  await other.page.waitForURL(new RegExp(`/g/${id}$`));
  const seat = await other.page.evaluate((g) => JSON.parse(localStorage.getItem(`hoyito.seat.${g}`)), id);
  assert.equal(seat.seat, 'south');
  assert.equal(await scrollsSideways(other.page), false);
  await other.context.close();
  // A third device opens the game's link: it offers the account's seat.
  const third = await openPage(browser, `${srv.url}/account`);
  await third.page.waitForSelector('#sign-in');
  await signIn(third.page, username);
  await third.page.goto(`${srv.url}/g/${id}`);
  await third.page.getByRole('button', { name: 'Play here' }).click();
  await third.page.waitForSelector('#account-seat', { state: 'detached' });
  const taken = await third.page.evaluate((g) => JSON.parse(localStorage.getItem(`hoyito.seat.${g}`)), id);
  assert.equal(taken.seat, 'south');
  assert.deepEqual(await seriousViolations(third.page), []);
  await third.context.close();
  await context.close();
});

test('the Account page fits a small phone in every language', once, async () => {
  for (const lang of ['en', 'es', 'ht']) {
    const { context, page } = await openPage(browser, `${srv.url}/account`, {
      viewport: { width: 360, height: 640 },
      storage: { 'hoyito.lang': lang },
    });
    await page.waitForSelector('#sign-up');
    assert.equal(await scrollsSideways(page), false, lang);
    assert.deepEqual(await seriousViolations(page), [], lang);
    await context.close();
  }
});
