// Passkeys in the browser, with Chromium's virtual authenticator (the
// DevTools protocol's WebAuthn domain: a platform authenticator that keeps
// discoverable credentials and verifies its user): signing up with a
// passkey (no password; the recovery codes shown once), signing out and in
// again with it (the username left empty, then typed), the last passkey of
// an account without a password kept, the account deleted with a passkey;
// a password account adding a passkey, signing in with it and removing it;
// and, in a browser without WebAuthn, the passkey buttons hidden with a
// note. At the suite's screen size (desktop and phone), with axe-core.
//
// WebAuthn has no passkeys for an IP address: the pages are opened at
// http://localhost:PORT (a secure context, as https would be), the server
// still bound to 127.0.0.1.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, seriousViolations, viewport, once } from './helpers.mjs';

let srv;
let browser;
let base;
before(async () => {
  srv = await startServer(undefined, '127.0.0.1:0', ['--sign-in-rate', '0', '--account-sign-in-rate', '0']);
  base = srv.url.replace('//127.0.0.1:', '//localhost:');
  browser = await launchBrowser();
});
after(async () => { await browser.close(); await srv.stop(); srv.cleanup(); });

const PASSWORD = 'tambor-lluvia-semilla-42';

/** Whether the page scrolls sideways. */
const scrollsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** The Account page at `base` in a fresh context with a virtual authenticator. */
async function withAuthenticator() {
  const { context, page } = await openPage(browser, `${base}/account`);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { context, page, credentials };
}

/** Waits until the toast says something matching `re`. */
const toastSays = (page, re) => page.waitForFunction(
  (source) => new RegExp(source).test(document.getElementById('toast').textContent),
  re.source,
);

/** Signs out from the Account page (signed in). */
async function signOut(page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForSelector('#sign-in');
}

test('sign up with a passkey, sign out, and sign in with it', async () => {
  const username = `Pia${viewport.width}`;
  const { context, page, credentials } = await withAuthenticator();
  await page.waitForSelector('#passkey-sign-up');
  assert.deepEqual(await seriousViolations(page), []);
  assert.equal(await scrollsSideways(page), false);

  // Sign up: a username and the device's passkey, no password.
  const up = page.locator('#passkey-sign-up');
  await up.getByLabel('Username').fill(username);
  await up.getByRole('button', { name: 'Sign up with a passkey' }).click();
  await page.waitForSelector('#codes');
  const codes = await page.locator('ol.codes code').allTextContents();
  assert.equal(codes.length, 8);
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.waitForSelector('#signed-in-as');
  assert.equal(await page.textContent('#signed-in-as'), `Signed in as ${username}`);
  // The device keeps one discoverable passkey for localhost; the account lists it.
  const [credential] = await credentials();
  assert.equal(credential.isResidentCredential, true);
  assert.equal(credential.rpId, 'localhost');
  await page.waitForSelector('#passkeys li button[data-remove]');
  assert.equal(await page.locator('#passkeys li').count(), 1);
  assert.match(await page.textContent('#passkeys li'), /Passkey added .*Not used yet/s);
  assert.deepEqual(await seriousViolations(page), []);
  assert.equal(await scrollsSideways(page), false);
  // The last way to sign in stays.
  await page.locator('#passkeys [data-remove]').click();
  await toastSays(page, /last way to sign in/);
  assert.equal(await page.locator('#passkeys li').count(), 1);

  // Sign out, and in again: the username left empty, the device offers its passkey.
  await signOut(page);
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForSelector('#signed-in-as');
  assert.equal(await page.textContent('#signed-in-as'), `Signed in as ${username}`);
  await page.waitForFunction(() => /Last used/.test(document.getElementById('passkeys').textContent));
  // And with the username typed (any case): its passkeys are offered.
  await signOut(page);
  await page.locator('#sign-in').getByLabel('Username').fill(username.toLowerCase());
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForSelector('#signed-in-as');
  const [cookie] = await context.cookies();
  assert.equal(cookie.name, 'hoyito_session');
  assert.equal(cookie.httpOnly, true);

  // Deleting the account, with no password, asks the passkey.
  await page.locator('summary', { hasText: 'Delete the account' }).click();
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Delete the account with a passkey' }).click();
  await page.waitForSelector('#sign-in');
  await toastSays(page, /account is deleted/);
  // Its passkey, still on the device, signs nobody in now.
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await toastSays(page, /not accepted here/);
  await context.close();
});

test('a password account adds a passkey, signs in with it and removes it', async () => {
  const username = `Rui${viewport.width}`;
  const { context, page, credentials } = await withAuthenticator();
  const up = page.locator('#sign-up');
  await up.getByLabel('Username').fill(username);
  await up.getByLabel('Password').fill(PASSWORD);
  await up.getByRole('button', { name: 'Create an account' }).click();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.waitForSelector('#signed-in-as');
  await page.waitForFunction(() => /No passkeys yet/.test(document.getElementById('passkeys').textContent));

  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await toastSays(page, /Passkey added/);
  await page.waitForSelector('#passkeys li button[data-remove]');
  assert.equal((await credentials()).length, 1);
  assert.deepEqual(await seriousViolations(page), []);
  assert.equal(await scrollsSideways(page), false);
  // The same device has it already: a second one is refused there.
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await toastSays(page, /keeps a passkey for this account already/);
  assert.equal((await credentials()).length, 1);

  await signOut(page);
  await page.locator('#sign-in').getByLabel('Username').fill(username);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForSelector('#signed-in-as');
  assert.equal(await page.textContent('#signed-in-as'), `Signed in as ${username}`);
  // With a password, its only passkey may go.
  await page.waitForSelector('#passkeys [data-remove]');
  await page.getByRole('button', { name: /Remove the passkey added/ }).click();
  await toastSays(page, /Passkey removed/);
  await page.waitForFunction(() => /No passkeys yet/.test(document.getElementById('passkeys').textContent));
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('a browser without passkeys is told so, and offers passwords only', once, async () => {
  for (const lang of ['en', 'es', 'ht']) {
    const { context, page } = await openPage(browser, `${base}/account`, {
      viewport: { width: 360, height: 640 },
      storage: { 'hoyito.lang': lang },
    });
    await context.addInitScript(() => { delete window.PublicKeyCredential; });
    await page.reload();
    await page.waitForSelector('#sign-up');
    assert.equal(await page.locator('#passkey-sign-in, #passkey-sign-up').count(), 0, lang);
    assert.equal(await page.locator('.no-passkeys').count(), 2, lang);
    assert.equal(await scrollsSideways(page), false, lang);
    assert.deepEqual(await seriousViolations(page), [], lang);
    await context.close();
  }
});
