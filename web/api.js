// The server's HTTP API, and the seats this browser holds (kept in localStorage).

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
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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
