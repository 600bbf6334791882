// Telling a seated player it is their move: a badge on the tab's icon, and,
// if they opt in, a short beep (WebAudio, no sound file) and a browser
// notification while the page is hidden. Spectators get none of these.
// Beside them, for everyone, the switch of the game's sounds (sounds.js).

import { t } from '../i18n.js';
import { isOver, isYou } from './state.js';
import { html, setHtml } from '../html.js';
import { setSounds, soundsOn, tone } from './sounds.js';

const PREF = { sound: 'hoyito.alerts.sound', notify: 'hoyito.alerts.notify' };
let iconText = null; // the favicon's SVG, fetched once
let iconLoading = null;
let lastAlerted = null; // `epoch:seq` of the last turn alerted
let badged = false;

const on = (k) => localStorage.getItem(PREF[k]) === '1';

function iconLink() {
  return document.querySelector('link[rel="icon"]');
}

/** The favicon's SVG text, fetched once per page load. */
function loadIcon() {
  if (!iconLoading) {
    iconLoading = fetch('/favicon.svg').then((r) => r.text()).then((text) => { iconText = text; return text; }).catch(() => null);
  }
  return iconLoading;
}

/** Puts a red dot on the tab's icon, or takes it off. */
async function setBadge(show) {
  if (show === badged) return;
  badged = show;
  const link = iconLink();
  if (!link) return;
  if (!show) { link.href = '/favicon.svg'; return; }
  const text = iconText || await loadIcon();
  if (!text || !badged) return;
  const dotted = text.replace(/<\/svg>\s*$/, '<circle cx="80%" cy="20%" r="20%" fill="#d32f2f" stroke="#fff" stroke-width="3%"/></svg>');
  link.href = `data:image/svg+xml,${encodeURIComponent(dotted)}`;
}

const beep = () => tone(660, 0.25, 0.15);

function notify(id) {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  try { new Notification(t('alerts.title'), { body: t('alerts.body', { id }), tag: `hoyito-${id}` }); } catch { /* not allowed here */ }
}

/** Whether it is the reader's move in the game shown (a lone seated player). */
const yourMove = (S) => {
  const v = S.view;
  return !isOver(v) && !S.sowing && S.frame === null && isYou(S, v.state.to_move);
};

/** Binds the switches of the "your move" sound and notification. */
function bindAlerts($) {
  const sound = $('alert-sound');
  const notifyBox = $('alert-notify');
  sound.checked = on('sound');
  notifyBox.checked = on('notify') && 'Notification' in window && Notification.permission === 'granted';
  sound.addEventListener('change', () => {
    localStorage.setItem(PREF.sound, sound.checked ? '1' : '0');
    if (sound.checked) beep(); // a sample, and unlocks audio on a user gesture
  });
  notifyBox.addEventListener('change', async () => {
    if (notifyBox.checked && 'Notification' in window && Notification.permission !== 'granted') {
      const answer = await Notification.requestPermission();
      if (answer !== 'granted') notifyBox.checked = false;
    }
    localStorage.setItem(PREF.notify, notifyBox.checked ? '1' : '0');
  });
}

/** Shows the sounds' switch to everyone and the alert switches to a seated player, and alerts them when their move comes. */
export function drawAlerts(G) {
  const { S, $ } = G;
  const v = S.view;
  const box = $('alerts');
  const seated = S.seat && S.seat !== 'both' && v.mode !== 'hotseat';
  const kind = seated ? 'seated' : 'other';
  if (box.dataset.kind !== kind) {
    box.dataset.kind = kind;
    const sounds = html`<label class="check"><input type="checkbox" id="game-sounds"> ${t('alerts.sounds')}</label>`;
    setHtml(box, seated ? html`${sounds}<fieldset><legend>${t('alerts.label')}</legend>
      <label class="check"><input type="checkbox" id="alert-sound"> ${t('alerts.sound')}</label>
      <label class="check"><input type="checkbox" id="alert-notify"> ${t('alerts.notify')}</label></fieldset>` : sounds);
    const all = $('game-sounds');
    all.checked = soundsOn();
    all.addEventListener('change', () => setSounds(all.checked));
    if (seated) bindAlerts($);
  }
  if (!seated) { setBadge(false); return; }
  const yours = yourMove(S);
  setBadge(yours);
  const key = `${v.epoch}:${v.seq}`;
  if (yours && lastAlerted !== key) {
    const first = lastAlerted === null;
    lastAlerted = key;
    if (first) return; // opening the page is no news
    if (on('sound')) beep();
    if (on('notify') && document.hidden) notify(S.id);
  }
}

/** Forgets the game's alerts (the page is left). */
export function resetAlerts() {
  lastAlerted = null;
  setBadge(false);
}
