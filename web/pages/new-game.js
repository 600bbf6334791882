// The New game page: the form that creates a game, and opening a record.

import { t } from '../i18n.js';
import { api, seats } from '../api.js';
import { esc, sideName, toastError } from '../ui.js';
import { navigate } from '../router.js';
import { createLocalGame } from '../local/backend.js';
import { serverReachable } from '../pwa.js';

// The last settings started with are offered again (localStorage).
const SAVED = 'hoyito.new-game';
const FIELDS = ['mode', 'where', 'variant', 'holes', 'level', 'side', 'match', 'seeds', 'direction',
  'repetition', 'capture_side', 'two_hole_opening', 'skip_origin', 'clock', 'public'];

// Time controls offered for online games: [value, label].
const CLOCKS = [['', null], ['180+2', '3+2'], ['300+3', '5+3'], ['600+5', '10+5'], ['d1', 1], ['d3', 3]];

/** The clock of the request for the form's `clock` value, or undefined. */
function clockOf(value) {
  if (!value) return undefined;
  if (value.startsWith('d')) return { days: Number(value.slice(1)) };
  const [initial, increment] = value.split('+').map(Number);
  return { initial, increment };
}

function remember(form) {
  const saved = {};
  for (const name of FIELDS) {
    const f = form.elements[name];
    saved[name] = f.type === 'checkbox' ? f.checked : f.value;
  }
  localStorage.setItem(SAVED, JSON.stringify(saved));
}

function restore(form) {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(SAVED) || 'null'); } catch { saved = null; }
  if (!saved) return;
  for (const name of FIELDS) {
    const f = form.elements[name];
    const v = saved[name];
    if (v === undefined) continue;
    if (f.type === 'checkbox') f.checked = !!v;
    else if (f instanceof RadioNodeList) { for (const r of f) r.checked = r.value === v; }
    else if (f.tagName !== 'SELECT' || [...f.options].some((o) => o.value === v)) f.value = v;
  }
}

/** Shows the New game page in `app`. */
export function newGamePage(app) {
  document.title = `Hoyito — ${t('new.title')}`;
  const opt = (v, label, sel) => `<option value="${v}"${sel ? ' selected' : ''}>${esc(label)}</option>`;
  const holes = [4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => opt(n, `2 × ${n}`, n === 6)).join('');
  const levels = [...Array(10)].map((_, i) => opt(i + 1, String(i + 1), i + 1 === 3)).join('');
  app.innerHTML = `
  <section class="card narrow">
    <h1>${t('new.title')}</h1>
    <p class="muted"><a href="/how-to-play" data-nav>${t('help.link')}</a></p>
    <form id="new-game">
      <fieldset class="modes"><legend>${t('new.mode')}</legend>
        <label><input type="radio" name="mode" value="engine" checked> ${t('mode.engine')}</label>
        <label><input type="radio" name="mode" value="hotseat"> ${t('mode.hotseat')}</label>
        <label><input type="radio" name="mode" value="online"> ${t('mode.online')}</label>
      </fieldset>
      <fieldset class="modes" id="where"><legend>${t('new.where')}</legend>
        <label><input type="radio" name="where" value="device"> ${t('where.device')}</label>
        <label><input type="radio" name="where" value="server" checked> ${t('where.server')}</label>
      </fieldset>
      <p id="offline-note" class="muted" hidden>${t('offline.note')}</p>
      <div class="grid">
        <label class="wide">${t('new.variant')}<select name="variant">
          ${opt('I', t('variant.I'), true)}${opt('II', t('variant.II'))}${opt('III', t('variant.III'))}</select></label>
        <label>${t('new.holes')}<select name="holes">${holes}</select></label>
        <label class="for-engine">${t('new.level')}<select name="level">${levels}</select></label>
        <label class="for-seat">${t('new.side')}<select name="side">${opt('south', sideName('south'), true)}${opt('north', sideName('north'))}</select></label>
        <label class="for-seat">${t('new.name')}<input name="nickname" maxlength="24" autocomplete="nickname"></label>
        <label class="for-online">${t('new.clock')}<select name="clock">${CLOCKS.map(([v, l]) => opt(v, l === null ? t('clock.none') : typeof l === 'number' ? t('clock.days', { n: l }) : l, v === '')).join('')}</select></label>
      </div>
      <label class="check for-online"><input type="checkbox" name="public"> ${t('new.public')}</label>
      <label class="check"><input type="checkbox" name="match"> ${t('new.match')}</label>
      <details><summary>${t('new.options')}</summary>
        <div class="grid">
          <label>${t('new.seeds')}<input type="number" name="seeds" min="1" max="8" value="4"></label>
          <label>${t('new.direction')}<select name="direction">
            ${opt('fixed', t('dir.fixed'), true)}${opt('per_player', t('dir.per_player'))}${opt('per_move', t('dir.per_move'))}</select></label>
          <label>${t('new.repetition')}<select name="repetition">${opt('even', t('rep.even'), true)}${opt('own_row', t('rep.own_row'))}</select></label>
          <label>${t('new.capture_side')}<select name="capture_side">${opt('any', t('cap.any'), true)}${opt('opponent', t('cap.opponent'))}</select></label>
        </div>
        <label class="check"><input type="checkbox" name="two_hole_opening"> ${t('new.opening')}</label>
        <label class="check"><input type="checkbox" name="skip_origin"> ${t('new.skip_origin')}</label>
      </details>
      <button type="submit" class="primary" id="start">${t('new.start')}</button>
    </form>
  </section>
  <section class="card narrow">
    <h2>${t('new.upload')}</h2>
    <p class="muted">${t('new.upload_hint')}</p>
    <input type="file" id="upload" accept=".txt,.hoy,text/plain" aria-label="${esc(t('new.upload'))}">
  </section>`;
  const form = document.getElementById('new-game');
  const sync = () => {
    const mode = form.mode.value;
    form.querySelector('.for-engine').hidden = mode !== 'engine';
    for (const el of form.querySelectorAll('.for-seat')) el.hidden = mode === 'hotseat';
    for (const el of form.querySelectorAll('.for-online')) el.hidden = mode !== 'online';
    document.getElementById('where').hidden = mode === 'online';
  };
  restore(form);
  form.elements.nickname.value = localStorage.getItem('hoyito.name') || '';
  form.addEventListener('change', sync);
  sync();
  // Without the server (offline, or a static copy of the app): games on this device only.
  serverReachable().then((up) => {
    if (up || !form.isConnected) return;
    document.getElementById('offline-note').hidden = false;
    for (const el of [form.querySelector('input[name="mode"][value="online"]'), form.querySelector('input[name="where"][value="server"]'), document.getElementById('upload')]) el.disabled = true;
    form.querySelector('input[name="where"][value="device"]').checked = true;
    if (form.mode.value === 'online') form.querySelector('input[name="mode"][value="engine"]').checked = true;
    sync();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form;
    const body = {
      mode: f.mode.value,
      match: f.match.checked,
      level: Number(f.level.value),
      side: f.side.value,
      rules: {
        variant: f.variant.value, holes: Number(f.holes.value), seeds: Number(f.seeds.value),
        direction: f.direction.value, repetition: f.repetition.value, capture_side: f.capture_side.value,
        two_hole_opening: f.two_hole_opening.checked, skip_origin: f.skip_origin.checked,
      },
    };
    const name = f.elements.nickname.value.trim();
    if (name && body.mode !== 'hotseat') body.name = name;
    if (body.mode === 'online') {
      body.clock = clockOf(f.clock.value);
      body.public = f.public.checked;
    }
    remember(form);
    if (name) localStorage.setItem('hoyito.name', name); else localStorage.removeItem('hoyito.name');
    try {
      const local = body.mode !== 'online' && f.where.value === 'device';
      const r = local ? await createLocalGame(body) : await api('POST', '/api/games', body);
      seats.set(r.id, { token: r.token, seat: r.seat, invite: r.invite || null });
      navigate(`/g/${r.id}`);
    } catch (err) {
      toastError(err);
    }
  });
  document.getElementById('upload').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      const record = await file.text();
      const r = await api('POST', '/api/games/import', { record });
      seats.set(r.id, { token: r.token, seat: r.seat });
      navigate(`/g/${r.id}`);
    } catch (err) {
      toastError(err);
    }
  });
}
