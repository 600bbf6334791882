// The Account page: sign in, create an account or set a new password with
// a recovery code when signed out; the account, its games, export, sign
// out (here or everywhere) and deletion when signed in. The recovery codes
// are shown once, right after the account is made. Signed in, it links
// to the account's player page (its ratings) and the leaderboard.
//
// `/account?next=/g/…` (a rated game's invite, the lobby) goes back there
// once signed in; only a path of this site is followed.

import { t } from '../i18n.js';
import { api, whoAmI } from '../api.js';
import { toast, toastError } from '../ui.js';
import { html, setHtml } from '../html.js';
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
 * Sends `form` with `send(fields)` once submitted (its button disabled
 * meanwhile); a refusal is told in a toast and the form stays.
 */
function onSubmit(form, send) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      await send(fields(form));
    } catch (err) {
      toastError(err);
    } finally {
      button.disabled = false;
    }
  });
}

function signedOut(app) {
  setHtml(app, html`<section class="card narrow account"><h1>${t('account.title')}</h1>
    <p class="muted">${t('account.intro')}</p>
    <form id="sign-in"><h2>${t('account.sign_in')}</h2>
      <label>${t('account.username')}<input name="username" autocomplete="username" maxlength="24" required></label>
      <label>${t('account.password')}<input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit" class="primary">${t('account.sign_in')}</button></form></section>
    <section class="card narrow account"><form id="sign-up"><h2>${t('account.sign_up')}</h2>
      <label>${t('account.username')}<input name="username" autocomplete="username" maxlength="24" required></label>
      <label>${t('account.password')}<input name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required aria-describedby="password-hint"></label>
      <p class="muted" id="password-hint">${t('account.password_hint')}</p>
      <button type="submit" class="primary">${t('account.sign_up')}</button></form></section>
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

function signedIn(app, account) {
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
      <label>${t('account.password')}<input name="password" type="password" autocomplete="current-password" required></label>
      <button type="submit">${t('account.delete')}</button></form></details></section>`);
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
    await api('DELETE', '/api/account', { password: f.password });
    toast(t('account.deleted'));
    signedOut(app);
  });
}
