// The Account page: sign in (with the password or a passkey), create an
// account (with a password or a passkey) or set a new password with a
// recovery code when signed out; the account, its games, its passkeys
// (added, listed, removed), export, sign out (here or everywhere) and
// deletion when signed in. The recovery codes are shown once, right after
// the account is made. Passkeys are offered only where the browser has
// them (window.PublicKeyCredential); elsewhere a note says so.
//
// Signed in, it links to the account's player page (its ratings) and the
// leaderboard. `/account?next=/g/…` (a rated game's invite, the lobby)
// goes back there once signed in; only a path of this site is followed.

import { t, getLang } from '../i18n.js';
import { api, whoAmI } from '../api.js';
import { toast, toastError } from '../ui.js';
import { html, setHtml } from '../html.js';
import {
  browserHasPasskeys, passkeysSupported, passkeySignUp, passkeySignIn, passkeyAnswer, addPasskey, passkeyError,
} from '../passkeys.js';
import { navigate } from '../nav.js';
import { playerPath } from '../ratings.js';

/** Where to go once signed in (`?next=`): a path of this site, else null. */
function nextPath() {
  const next = new URLSearchParams(location.search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') && !next.includes('\\') ? next : null;
}

/** Shows the account signed in, or goes back to the page that asked for the sign-in. */
function done(app, account) {
  const next = nextPath();
  if (next) navigate(next, true); else signedIn(app, account);
}

/** Shows the Account page in `app`. */
export async function accountPage(app) {
  document.title = `Hoyito — ${t('account.title')}`;
  setHtml(app, html`<section class="card narrow"><h1>${t('account.title')}</h1><p class="muted">…</p></section>`);
  const account = await whoAmI();
  if (!app.isConnected) return;
  if (account) signedIn(app, account); else signedOut(app);
}

/** The fields of a form, by name. */
const fields = (form) => Object.fromEntries(new FormData(form).entries());

/**
 * Runs `send()` with `button` disabled meanwhile; a refusal (of the server
 * or of the browser's passkey prompt) is told in a toast.
 */
async function busy(button, send) {
  button.disabled = true;
  try {
    await send();
  } catch (err) {
    toastError(passkeyError(err));
  } finally {
    if (button.isConnected) button.disabled = false;
  }
}

/**
 * Sends `form` with `send(fields)` once submitted (its button disabled
 * meanwhile); a refusal is told in a toast and the form stays.
 */
function onSubmit(form, send) {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    busy(form.querySelector('button[type=submit]'), () => send(fields(form)));
  });
}

/** The note shown instead of passkeys where the browser has none, or the page's address is an IP address. */
const noPasskeys = () => html`<p class="muted no-passkeys">${t(browserHasPasskeys() ? 'err.passkeys_unavailable' : 'account.passkeys_unsupported')}</p>`;

function signedOut(app) {
  const passkeys = passkeysSupported();
  setHtml(app, html`<section class="card narrow account"><h1>${t('account.title')}</h1>
    <p class="muted">${t('account.intro')}</p>
    <form id="sign-in"><h2>${t('account.sign_in')}</h2>
      <label>${t('account.username')}<input name="username" autocomplete="username webauthn" maxlength="24" required></label>
      <label>${t('account.password')}<input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit" class="primary">${t('account.sign_in')}</button></form>
    ${passkeys ? html`<p class="passkey-way"><button type="button" id="passkey-sign-in">${t('account.passkey_sign_in')}</button></p>
      <p class="muted">${t('account.passkey_sign_in_hint')}</p>` : noPasskeys()}</section>
    <section class="card narrow account"><form id="sign-up"><h2>${t('account.sign_up')}</h2>
      <label>${t('account.username')}<input name="username" autocomplete="username" maxlength="24" required></label>
      <label>${t('account.password')}<input name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required aria-describedby="password-hint"></label>
      <p class="muted" id="password-hint">${t('account.password_hint')}</p>
      <button type="submit" class="primary">${t('account.sign_up')}</button></form></section>
    <section class="card narrow account" id="passkey-sign-up-card">${passkeys
      ? html`<form id="passkey-sign-up"><h2>${t('account.passkey_sign_up')}</h2>
        <p class="muted" id="passkey-hint">${t('account.passkey_hint')}</p>
        <label>${t('account.username')}<input name="username" autocomplete="username" maxlength="24" required aria-describedby="passkey-hint"></label>
        <button type="submit" class="primary">${t('account.passkey_sign_up')}</button></form>`
      : html`<h2>${t('account.passkey_sign_up')}</h2>${noPasskeys()}`}</section>
    <section class="card narrow account"><details><summary>${t('account.forgot')}</summary>
      <form id="recover">
      <label>${t('account.username')}<input name="username" autocomplete="username" maxlength="24" required></label>
      <label>${t('account.code')}<input name="code" autocomplete="off" required></label>
      <label>${t('account.new_password')}<input name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required></label>
      <button type="submit" class="primary">${t('account.recover')}</button></form></details></section>`);
  onSubmit(document.getElementById('sign-in'), async (f) => {
    const { account } = await api('POST', '/api/session', { username: f.username, password: f.password });
    toast(t('account.signed_in'));
    done(app, account);
  });
  onSubmit(document.getElementById('sign-up'), async (f) => {
    const r = await api('POST', '/api/account', { username: f.username, password: f.password });
    showCodes(app, r.account, r.recovery_codes);
  });
  onSubmit(document.getElementById('recover'), async (f) => {
    const { account } = await api('POST', '/api/account/recover', { username: f.username, code: f.code, password: f.password });
    toast(t('account.password_set'));
    done(app, account);
  });
  if (!passkeys) return;
  const withPasskey = document.getElementById('passkey-sign-in');
  withPasskey.addEventListener('click', () => busy(withPasskey, async () => {
    const username = document.querySelector('#sign-in [name=username]').value.trim();
    const { account } = await passkeySignIn(username || undefined);
    toast(t('account.signed_in'));
    done(app, account);
  }));
  onSubmit(document.getElementById('passkey-sign-up'), async (f) => {
    const r = await passkeySignUp(f.username);
    showCodes(app, r.account, r.recovery_codes);
  });
}

/** The recovery codes of a new account, shown this once. */
function showCodes(app, account, codes) {
  setHtml(app, html`<section class="card narrow account" id="codes"><h1>${t('account.codes_title')}</h1>
    <p>${t('account.codes_note')}</p>
    <ol class="codes">${codes.map((c) => html`<li><code>${c}</code></li>`)}</ol>
    <button type="button" class="primary" id="codes-done">${t('account.codes_done')}</button></section>`);
  const button = document.getElementById('codes-done');
  button.focus();
  button.addEventListener('click', () => done(app, account));
}

/** A date of the account's, in the reader's language. */
const day = (ms) => new Date(ms).toLocaleDateString(getLang(), { year: 'numeric', month: 'short', day: 'numeric' });

function signedIn(app, account) {
  const passkeys = passkeysSupported();
  const confirm = account.password
    ? html`<label>${t('account.password')}<input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit">${t('account.delete')}</button>`
    : html`${passkeys ? '' : noPasskeys()}<button type="submit">${t('account.delete_with_passkey')}</button>`;
  setHtml(app, html`<section class="card narrow account"><h1>${t('account.title')}</h1>
    <p id="signed-in-as">${t('account.signed_in_as', { name: account.username })}</p>
    <p class="muted">${t('account.codes_left', { n: account.recovery_codes_left })}</p>
    <p class="account-actions"><a class="button" href="${playerPath(account.username)}" data-nav id="my-page">${t('account.my_page')}</a>
      <a class="button" href="/leaderboard" data-nav>${t('lb.title')}</a></p>
    <p class="account-actions"><a class="button" href="/games" data-nav>${t('lobby.mine')}</a>
      <a class="button" href="/api/account/export" download="hoyito-account.json">${t('account.export')}</a></p>
    <p class="account-actions"><button type="button" id="sign-out">${t('account.sign_out')}</button>
      <button type="button" id="sign-out-all">${t('account.sign_out_all')}</button></p>
    <details><summary>${t('account.delete')}</summary><form id="delete-account">
      <p>${t('account.delete_note')}</p>
      ${confirm}</form></details></section>
    <section class="card narrow account" id="passkeys-card" aria-labelledby="passkeys-title"><h2 id="passkeys-title">${t('account.passkeys')}</h2>
      <p class="muted">${t('account.passkeys_note')}</p>
      <ul id="passkeys" class="passkeys" aria-live="polite"></ul>
      ${passkeys ? html`<button type="button" id="add-passkey">${t('account.passkey_add')}</button>` : noPasskeys()}</section>`);
  if (!passkeys && !account.password) document.querySelector('#delete-account button').disabled = true;
  const ending = (path, message) => async (e) => {
    e.target.disabled = true;
    try {
      await api('DELETE', path);
      toast(t(message));
      signedOut(app);
    } catch (err) {
      e.target.disabled = false;
      toastError(err);
    }
  };
  document.getElementById('sign-out').addEventListener('click', ending('/api/session', 'account.signed_out'));
  document.getElementById('sign-out-all').addEventListener('click', ending('/api/sessions', 'account.signed_out_all'));
  onSubmit(document.getElementById('delete-account'), async (f) => {
    const proof = account.password ? { password: f.password } : await passkeyAnswer(account.username);
    await api('DELETE', '/api/account', proof);
    toast(t('account.deleted'));
    signedOut(app);
  });
  showPasskeys(app, account);
  if (!passkeys) return;
  const add = document.getElementById('add-passkey');
  add.addEventListener('click', () => busy(add, async () => {
    const r = await addPasskey();
    toast(t('account.passkey_added'));
    signedIn(app, r.account);
  }));
}

/** Lists the account's passkeys, each with its button to remove it. */
async function showPasskeys(app, account) {
  const list = document.getElementById('passkeys');
  let keys;
  try {
    ({ passkeys: keys } = await api('GET', '/api/account/passkeys'));
  } catch (err) {
    toastError(err);
    return;
  }
  if (!list.isConnected) return;
  setHtml(list, keys.length
    ? html`${keys.map((k) => {
      const added = t('account.passkey_added_on', { date: day(k.created_ms) });
      const used = k.last_used_ms ? t('account.passkey_used_on', { date: day(k.last_used_ms) }) : t('account.passkey_never_used');
      return html`<li><span>${added}<br><span class="muted">${used}</span></span>
        <button type="button" data-remove="${k.id}" aria-label="${t('account.passkey_remove_label', { date: day(k.created_ms) })}">${t('account.passkey_remove')}</button></li>`;
    })}`
    : html`<li class="muted">${t('account.passkeys_none')}</li>`);
  for (const button of list.querySelectorAll('[data-remove]')) {
    button.addEventListener('click', () => busy(button, async () => {
      const r = await api('DELETE', `/api/account/passkeys/${encodeURIComponent(button.dataset.remove)}`);
      toast(t('account.passkey_removed'));
      signedIn(app, r.account);
    }));
  }
}
