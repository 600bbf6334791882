// The server's HTTP API, and the seats this browser holds (kept in localStorage).
// Requests about games on this device are answered by local/backend.js.

import { t } from './i18n.js';
import { isLocalPath, localApi, localSummaries } from './local/backend.js';

/** An error answer of the API: its message, HTTP status and error code. */
export class ApiError extends Error {
  constructor(body, status) {
    super(body?.error || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code;
  }
}

/** Calls the API: JSON in and out, `token` as the bearer. Throws ApiError. */
export async function api(method, path, body, token) {
  if (isLocalPath(path)) {
    try { return await localApi(method, path, body); } catch (e) { throw new ApiError({ error: e.message, code: e.code }, e.status || 500); }
  }
  // The list of games: the server's (if it answers) and this device's.
  if (method === 'GET' && /^\/api\/games(\?|$)/.test(path)) {
    const server = await serverApi(method, path, body, token).catch(() => ({ games: [] }));
    const local = await localSummaries();
    return { ...server, games: [...local, ...(server.games || [])].sort((a, b) => b.updated_ms - a.updated_ms) };
  }
  return serverApi(method, path, body, token);
}

async function serverApi(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    // No network (offline): say that this needs a connection.
    throw new ApiError({ error: t('offline.needed'), code: 'offline' }, 0);
  }
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!res.ok) throw new ApiError(json, res.status);
  return json;
}

/** The seat (token, side, invite link) this browser holds in each game. */
export const seats = {
  get(id) {
    try { return JSON.parse(localStorage.getItem(`hoyito.seat.${id}`) || 'null'); } catch { return null; }
  },
  set(id, v) { localStorage.setItem(`hoyito.seat.${id}`, JSON.stringify(v)); },
};

/**
 * The account this browser is signed in to (`{username, created_ms,
 * recovery_codes_left}`), or null: signed out, or no server answers.
 */
export async function whoAmI() {
  try {
    const { account } = await serverApi('GET', '/api/account');
    return account || null;
  } catch {
    return null;
  }
}
