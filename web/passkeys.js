// Passkeys (WebAuthn) in the browser: the two requests of each ceremony
// around navigator.credentials.create() and .get(). The server's options
// and the credential sent back carry their binary fields in base64url
// (docs/API.md, "Passkeys").

import { api } from './api.js';

/** Whether this browser has passkeys (WebAuthn). */
export const browserHasPasskeys = () => typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;

/**
 * Whether passkeys can be used here: the browser has them, and the page
 * was opened by the site's name (WebAuthn has none for an IP address).
 */
export const passkeysSupported = () => browserHasPasskeys() && !/^[\d.]+$|^\[/.test(location.hostname);

/** base64url (no padding) to bytes. */
function decode(s) {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0)).buffer;
}

/** Bytes (an ArrayBuffer or a view) to base64url without padding. */
function encode(buf) {
  const bytes = new Uint8Array(buf instanceof ArrayBuffer ? buf : buf.buffer);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const descriptors = (list) => (list || []).map((c) => ({ ...c, id: decode(c.id) }));

/** The credential the browser answered, as the server reads it. */
function credentialJson(cred) {
  const r = cred.response;
  const response = { clientDataJSON: encode(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = encode(r.attestationObject);
    if (typeof r.getTransports === 'function') response.transports = r.getTransports();
  } else {
    response.authenticatorData = encode(r.authenticatorData);
    response.signature = encode(r.signature);
    response.userHandle = r.userHandle ? encode(r.userHandle) : null;
  }
  return { id: cred.id, rawId: encode(cred.rawId), type: cred.type, response, extensions: {} };
}

/** A new passkey for the options of a registration's start. */
async function create(options) {
  const o = options.publicKey;
  const publicKey = {
    ...o,
    challenge: decode(o.challenge),
    user: { ...o.user, id: decode(o.user.id) },
    excludeCredentials: descriptors(o.excludeCredentials),
  };
  return credentialJson(await navigator.credentials.create({ publicKey }));
}

/** A passkey's answer to the options of a sign-in's start. */
async function get(options) {
  const o = options.publicKey;
  const publicKey = { ...o, challenge: decode(o.challenge), allowCredentials: descriptors(o.allowCredentials) };
  return credentialJson(await navigator.credentials.get({ publicKey }));
}

/** Signs up as `username` with a new passkey: `{account, recovery_codes}`. */
export async function passkeySignUp(username) {
  const start = await api('POST', '/api/passkeys/register/start', { username });
  const credential = await create(start.options);
  return api('POST', '/api/passkeys/register/finish', { ceremony: start.ceremony, credential });
}

/** Adds a new passkey to the account signed in: `{passkey, account}`. */
export async function addPasskey() {
  const start = await api('POST', '/api/passkeys/register/start', {});
  const credential = await create(start.options);
  return api('POST', '/api/passkeys/register/finish', { ceremony: start.ceremony, credential });
}

/**
 * A passkey's answer to a new sign-in ceremony (of `username`'s passkeys,
 * or any this device keeps for the site): `{ceremony, credential}`.
 */
export async function passkeyAnswer(username) {
  const start = await api('POST', '/api/session/passkey/start', username ? { username } : {});
  const credential = await get(start.options);
  return { ceremony: start.ceremony, credential };
}

/** Signs in with a passkey (of `username`, if given): `{account}`. */
export async function passkeySignIn(username) {
  return api('POST', '/api/session/passkey/finish', await passkeyAnswer(username));
}

/**
 * The error code of a browser's refusal (the player cancelled or waited
 * too long, or the device has that passkey already), as the API's errors
 * have one, for ui.js errorText.
 */
export function passkeyError(err) {
  if (err && err.name === 'NotAllowedError') return Object.assign(new Error(err.message), { code: 'passkey_cancelled' });
  if (err && err.name === 'InvalidStateError') return Object.assign(new Error(err.message), { code: 'passkey_exists' });
  return err;
}
