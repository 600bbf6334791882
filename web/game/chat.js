// Chat in online games: players write; spectators read it in a public game,
// and in another are told that the players' chat is private (the server
// keeps it for the players: the page does not ask for it). Messages come
// from the server (GET …/chat, then `chat` events on the WebSocket) and are
// always shown as text, never as HTML.

import { t } from '../i18n.js';
import { api } from '../api.js';
import { toastError } from '../ui.js';
import { html, setHtml } from '../html.js';
import { playerName } from './state.js';

const MAX = 200;

function paint(G) {
  const { S, $ } = G;
  const list = $('chat-list');
  if (!list || !S.view) return;
  list.textContent = '';
  if (!S.chat.length) {
    const li = document.createElement('li');
    li.className = 'muted';
    li.textContent = t('chat.none');
    list.append(li);
  }
  for (const m of S.chat) {
    const li = document.createElement('li');
    const who = document.createElement('strong');
    who.textContent = S.seat === m.side ? t('chat.you') : playerName(S, m.side);
    li.append(who, document.createTextNode(`: ${m.text}`));
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

/** Whether this page may read the chat: a player's, or anyone's in a public game. */
const mayRead = (S) => !!S.seat || !!S.view?.public;

/** Builds the chat box of an online game (once), then shows its messages. */
export function drawChat(G) {
  const { S, $ } = G;
  const v = S.view;
  const box = $('chat');
  if (v.mode !== 'online') { box.hidden = true; return; }
  box.hidden = false;
  if (!mayRead(S)) {
    if (!$('chat-private')) {
      setHtml(box, html`<h2>${t('chat.title')}</h2><p class="muted" id="chat-private">${t('chat.private')}</p>`);
    }
    return;
  }
  if ($('chat-private')) box.replaceChildren();
  if (!box.firstChild) {
    const player = S.seat && S.seat !== 'both';
    setHtml(box, html`<h2>${t('chat.title')}</h2><ul id="chat-list" class="chat-list" aria-live="polite"></ul>
      ${player ? html`<form id="chat-form" class="row"><input id="chat-text" maxlength="${MAX}" autocomplete="off"
        placeholder="${t('chat.placeholder')}" aria-label="${t('chat.placeholder')}">
        <button type="submit">${t('chat.send')}</button></form>` : html`<p class="muted">${t('chat.readonly')}</p>`}`);
    const form = $('chat-form');
    if (form) form.addEventListener('submit', (e) => { e.preventDefault(); send(G); });
  }
  paint(G);
}

async function send(G) {
  const { S, $ } = G;
  const input = $('chat-text');
  const text = input.value.trim();
  if (!text) return;
  try {
    const m = await api('POST', `/api/games/${S.id}/chat`, { text }, S.token);
    input.value = '';
    onChat(G, m);
  } catch (err) { toastError(err); }
}

/** Takes a message (from the WebSocket or a reply) into the list. */
export function onChat(G, m) {
  const { S } = G;
  if (S.chat.some((c) => c.seq === m.seq)) return;
  S.chat.push(m);
  S.chat.sort((a, b) => a.seq - b.seq);
  paint(G);
}

/** Fetches the messages so far (none for a spectator of a game that is not public: they are the players'). */
export async function loadChat(G) {
  if (!mayRead(G.S)) return;
  try {
    const { messages } = await api('GET', `/api/games/${G.S.id}/chat`, undefined, G.S.token);
    for (const m of messages) onChat(G, m);
  } catch { /* the page shows its own errors */ }
}

/** Starts the page with no messages (they are loaded once the socket opens). */
export function bindChat(G) {
  G.S.chat = [];
}
