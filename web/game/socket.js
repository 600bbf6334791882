// The game's live WebSocket: every move and state change the server sends,
// reconnecting with backoff when the connection drops. A game on this
// device is followed through local/backend.js instead.

import { isLocalId, subscribe } from '../local/backend.js';
import { seats } from '../api.js';

/**
 * Connects to game `id`'s WebSocket, handing each message's game view (and
 * move, if any) to `onGame`, each chat message to `onChat`, and calling
 * `onStatus(connected)` when the connection opens or drops, and who has
 * the game open to `onPresence`. Returns a function that closes it for good.
 */
export function openSocket(id, onGame, onStatus, onChat = () => {}, onPresence = () => {}) {
  if (isLocalId(id)) return subscribe(id, onGame, onStatus);
  let ws = null;
  let closed = false;
  let backoff = 0;
  let timer = null;
  function connect() {
    if (closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    // A player's token goes as a subprotocol (never in the URL): the chat of
    // a game that is not public reaches its players only.
    const token = seats.get(id)?.token;
    const protocols = token ? ['hoyito', `hoyito.bearer.${token}`] : ['hoyito'];
    ws = new WebSocket(`${proto}://${location.host}/api/games/${id}/ws`, protocols);
    ws.onopen = () => { backoff = 0; onStatus(true); };
    ws.onmessage = (e) => {
      if (e.data === 'pong') return;
      const msg = JSON.parse(e.data);
      if (msg.type === 'chat') { onChat(msg.message); return; }
      if (msg.type === 'presence') { onPresence(msg.presence); return; }
      onGame(msg.game, msg.type === 'move' ? msg.move : null);
    };
    ws.onclose = () => {
      if (closed) return;
      onStatus(false);
      const delay = Math.min(10000, 400 * 2 ** backoff) * (0.75 + Math.random() * 0.5);
      backoff += 1;
      timer = setTimeout(connect, delay);
    };
    ws.onerror = () => ws.close();
  }
  const ping = setInterval(() => { if (ws && ws.readyState === 1) ws.send('ping'); }, 25000);
  connect();
  return () => {
    closed = true;
    clearTimeout(timer);
    clearInterval(ping);
    if (ws) ws.close();
  };
}
