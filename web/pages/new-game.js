// The New game page: the form that creates a game, and opening a record.
// An online game may be rated (docs/API.md, "Ratings") when the player is
// signed in and the game is a single game on the variant's standard 2×6
// rules; the form says why otherwise.
//
// The rules options of the form are made from the core's table of options
// (`rulesOptions()` of the WebAssembly module: names, values, defaults and
// limits), which the app has offline too; only their labels (i18n.js) and
// their places in the form are chosen here.

import { t } from '../i18n.js';
import { api, seats, whoAmI } from '../api.js';
import { sideName, toastError } from '../ui.js';
import { html, setHtml } from '../html.js';
import { navigate } from '../nav.js';
import { createLocalGame, ready } from '../local/backend.js';
import { rulesOptions } from '../wasm/hoyito_wasm.js';
import { serverReachable } from '../pwa.js';
import { poolLabel, timeClass } from '../ratings.js';

// The last settings started with are offered again (localStorage).
const SAVED = 'hoyito.new-game';
const OTHER_FIELDS = ['mode', 'where', 'level', 'side', 'match', 'clock', 'clock_min', 'clock_sec', 'clock_inc', 'clock_days', 'public', 'rated', 'rating_range'];

// The form offers each option's own limits; the server's lower limit of
// seeds per hole (8, docs/API.md) is its own, and it says so if asked for more.

// How each option is shown: its label, the i18n prefix of its values, and
// whether it is in the main grid (the others are under "More options").
const SHOWN = {
  variant: { label: 'new.variant', values: 'variant.', main: true, wide: true },
  holes: { label: 'new.holes', main: true },
  seeds: { label: 'new.seeds' },
  direction: { label: 'new.direction', values: 'dir.' },
  repetition: { label: 'new.repetition', values: 'rep.' },
  capture_side: { label: 'new.capture_side', values: 'cap.' },
  two_hole_opening: { label: 'new.opening' },
  skip_origin: { label: 'new.skip_origin' },
};

/** The label of `key`, or `fallback` where the catalogue has none. */
const label = (key, fallback) => {
  const s = key ? t(key) : key;
  return s && s !== key ? s : fallback;
};

// Time controls offered for online games: [value, label]. `custom` and
// `days` take their times from the fields below the choice: any clock the
// server accepts (docs/API.md: 60 s to 180 min at the start, 0–60 s a
// move; 1–14 days a move).
const CLOCKS = [['', null], ['180+2', '3+2'], ['300+3', '5+3'], ['600+5', '10+5'], ['custom', 'clock.custom'],
  ['d1', 1], ['d3', 3], ['days', 'clock.custom_days']];
const MIN_INITIAL = 60;
const MAX_INITIAL = 180 * 60;
const MAX_INCREMENT = 60;
const MAX_DAYS = 14;

/** The clock of the request for the form `f`'s choice, or undefined. */
function clockOf(f) {
  const value = f.clock.value;
  if (!value) return undefined;
  if (value === 'custom') {
    return { initial: Number(f.clock_min.value) * 60 + Number(f.clock_sec.value), increment: Number(f.clock_inc.value) };
  }
  if (value === 'days') return { days: Number(f.clock_days.value) };
  if (value.startsWith('d')) return { days: Number(value.slice(1)) };
  const [initial, increment] = value.split('+').map(Number);
  return { initial, increment };
}

/** The label of a clock choice. */
const clockLabel = (l) => (l === null ? t('clock.none') : typeof l === 'number' ? t('clock.days', { n: l }) : l.startsWith('clock.') ? t(l) : l);

/** Checks the custom clock's fields; says what is wrong on the field, false if anything is. */
function clockValid(f) {
  if (f.clock.value !== 'custom') {
    f.clock_min.setCustomValidity('');
    return true;
  }
  const initial = Number(f.clock_min.value) * 60 + Number(f.clock_sec.value);
  const ok = Number.isInteger(initial) && initial >= MIN_INITIAL && initial <= MAX_INITIAL;
  f.clock_min.setCustomValidity(ok ? '' : t('clock.range'));
  return ok && f.clock_sec.checkValidity() && f.clock_inc.checkValidity();
}

function remember(form, fields) {
  const saved = {};
  for (const name of fields) {
    const f = form.elements[name];
    saved[name] = f.type === 'checkbox' ? f.checked : f.value;
  }
  localStorage.setItem(SAVED, JSON.stringify(saved));
}

function restore(form, fields) {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(SAVED) || 'null'); } catch { saved = null; }
  if (!saved) return;
  for (const name of fields) {
    const f = form.elements[name];
    const v = saved[name];
    if (v === undefined || !f) continue;
    if (f.type === 'checkbox') f.checked = !!v;
    else if (f instanceof RadioNodeList) { for (const r of f) r.checked = r.value === v; }
    else if (f.tagName !== 'SELECT' || [...f.options].some((o) => o.value === v)) f.value = v;
  }
}

/** The form's control of one rules option (`o` from `rulesOptions()`). */
function optionField(o, opt) {
  const shown = SHOWN[o.name] || {};
  const name = label(shown.label, o.name);
  // The meaning in the reader's language; the core's English for an option without a translation.
  const meaning = label(`optinfo.${o.name}`, o.meaning.charAt(0).toUpperCase() + o.meaning.slice(1));
  const title = t('new.option_title', { meaning, section: o.section });
  if (o.type === 'flag') {
    return html`<label class="check" title="${title}"><input type="checkbox" name="${o.name}"${o.default ? html` checked` : ''}> ${name}</label>`;
  }
  let control;
  if (o.type === 'choice') {
    const values = o.values.map((v) => opt(v, label(shown.values && `${shown.values}${v}`, v), v === o.default));
    control = html`<select name="${o.name}">${values}</select>`;
  } else if (o.name === 'holes') {
    const counts = [];
    for (let n = o.min; n <= o.max; n += 1) counts.push(opt(n, `2 × ${n}`, n === o.default));
    control = html`<select name="${o.name}">${counts}</select>`;
  } else {
    control = html`<input type="number" name="${o.name}" min="${o.min}" max="${o.max}" value="${o.default}">`;
  }
  return html`<label${shown.wide ? html` class="wide"` : ''} title="${title}">${name}${control}</label>`;
}

/**
 * Whether the form's rules are the standard rules of their variant, the
 * only rated ones: a 2×6 board and every other option at its default.
 */
function standardRules(form, options) {
  return options.every((o) => o.name === 'variant' || optionValue(form, o) === (o.name === 'holes' ? 6 : o.default));
}

/** The form's value of option `o`, as the API takes it. */
function optionValue(form, o) {
  const f = form.elements[o.name];
  if (o.type === 'flag') return f.checked;
  if (o.type === 'number') return Number(f.value);
  return f.value;
}

/** A rated seek's choices of its opponents' ratings: within so many points of the creator's (0: any). */
const RANGES = [0, 100, 200, 300, 500];

// The options' table, once the WebAssembly module is loaded; `drawn`
// counts the calls, so that a page left before the module arrived is not
// drawn over the next one.
let table = null;
let drawn = 0;

/** Shows the New game page in `app` (once the options' table is loaded). */
export function newGamePage(app) {
  document.title = `Hoyito — ${t('new.title')}`;
  const call = ++drawn;
  if (table) {
    drawForm(app, table);
    return;
  }
  ready()
    .then(() => {
      table = rulesOptions();
      if (call === drawn && ['/', '/new'].includes(location.pathname)) drawForm(app, table);
    })
    .catch(toastError);
}

function drawForm(app, options) {
  const fields = [...OTHER_FIELDS, ...options.map((o) => o.name)];
  const opt = (v, text, sel) => html`<option value="${v}"${sel ? html` selected` : ''}>${text}</option>`;
  const levels = [...Array(10)].map((_, i) => opt(i + 1, String(i + 1), i + 1 === 3));
  const main = options.filter((o) => SHOWN[o.name]?.main);
  const more = options.filter((o) => !SHOWN[o.name]?.main);
  setHtml(app, html`
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
        ${main.map((o) => optionField(o, opt))}
        <label class="for-engine">${t('new.level')}<select name="level">${levels}</select></label>
        <label class="for-seat">${t('new.side')}<select name="side">${opt('south', sideName('south'), true)}${opt('north', sideName('north'))}</select></label>
        <label class="for-seat">${t('new.name')}<input name="nickname" maxlength="24" autocomplete="nickname"></label>
        <label class="for-online">${t('new.clock')}<select name="clock">${CLOCKS.map(([v, l]) => opt(v, clockLabel(l), v === ''))}</select></label>
        <label class="for-clock-custom">${t('clock.minutes')}<input type="number" name="clock_min" min="0" max="${MAX_INITIAL / 60}" step="1" value="10" required></label>
        <label class="for-clock-custom">${t('clock.seconds')}<input type="number" name="clock_sec" min="0" max="59" step="1" value="0" required></label>
        <label class="for-clock-custom">${t('clock.increment')}<input type="number" name="clock_inc" min="0" max="${MAX_INCREMENT}" step="1" value="5" required></label>
        <label class="for-clock-days">${t('clock.days_field')}<input type="number" name="clock_days" min="1" max="${MAX_DAYS}" step="1" value="7" required></label>
      </div>
      <label class="check for-online"><input type="checkbox" name="public"> ${t('new.public')}</label>
      <div id="rated-box" class="rated-box" hidden>
        <label class="check"><input type="checkbox" name="rated" aria-describedby="rated-note"> ${t('new.rated')}</label>
        <p class="muted note" id="rated-note"></p>
        <label class="for-seek">${t('new.rating_range')}<select name="rating_range">${RANGES.map((n) => opt(n, n ? `± ${n}` : t('new.rating_any'), n === 0))}</select></label>
      </div>
      <p class="muted note" id="rated-signed-out" hidden>${t('new.rated_signed_out')} <a href="/account?next=%2F" data-nav>${t('account.sign_in')}</a></p>
      <label class="check"><input type="checkbox" name="match"> ${t('new.match')}</label>
      <details><summary>${t('new.options')}</summary>
        <div class="grid">${more.filter((o) => o.type !== 'flag').map((o) => optionField(o, opt))}</div>
        ${more.filter((o) => o.type === 'flag').map((o) => optionField(o, opt))}
      </details>
      <button type="submit" class="primary" id="start">${t('new.start')}</button>
    </form>
  </section>
  <section class="card narrow">
    <h2>${t('new.upload')}</h2>
    <p class="muted">${t('new.upload_hint')}</p>
    <input type="file" id="upload" accept=".txt,.hoy,text/plain" aria-label="${t('new.upload')}">
  </section>`);
  const form = document.getElementById('new-game');
  // Whether an account is signed in: null until the server said.
  let signedIn = null;
  const sync = () => {
    const mode = form.mode.value;
    // A rated game: online, signed in, a single game on the standard rules.
    const online = mode === 'online';
    document.getElementById('rated-box').hidden = !online || signedIn !== true;
    document.getElementById('rated-signed-out').hidden = !online || signedIn !== false;
    const standard = standardRules(form, options);
    form.rated.disabled = !standard || form.match.checked;
    document.getElementById('rated-note').textContent = !standard ? t('new.rated_rules')
      : form.match.checked ? t('new.rated_match')
        : t('new.rated_pool', { pool: poolLabel(`${form.variant.value}-${timeClass(form.clock.value ? clockOf(form) : null)}`) });
    // A rated seek (public) may limit its opponents' ratings.
    form.querySelector('.for-seek').hidden = form.rated.disabled || !form.rated.checked || !form.public.checked;
    form.querySelector('.for-engine').hidden = mode !== 'engine';
    for (const el of form.querySelectorAll('.for-seat')) el.hidden = mode === 'hotseat';
    for (const el of form.querySelectorAll('.for-online')) el.hidden = mode !== 'online';
    // The fields of a custom clock: shown, and asked for, only when chosen.
    for (const [cls, value] of [['.for-clock-custom', 'custom'], ['.for-clock-days', 'days']]) {
      for (const el of form.querySelectorAll(cls)) {
        el.hidden = mode !== 'online' || form.clock.value !== value;
        el.querySelector('input').disabled = el.hidden;
      }
    }
    document.getElementById('where').hidden = mode === 'online';
  };
  restore(form, fields);
  form.elements.nickname.value = localStorage.getItem('hoyito.name') || '';
  form.addEventListener('change', sync);
  form.addEventListener('input', (e) => { if (e.target.name?.startsWith('clock_')) clockValid(form); });
  sync();
  whoAmI().then((account) => {
    if (!form.isConnected) return;
    signedIn = !!account;
    sync();
  });
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
      rules: Object.fromEntries(options.map((o) => [o.name, optionValue(f, o)])),
    };
    const name = f.elements.nickname.value.trim();
    if (name && body.mode !== 'hotseat') body.name = name;
    if (body.mode === 'online') {
      if (!clockValid(f)) {
        f.reportValidity();
        return;
      }
      body.clock = clockOf(f);
      body.public = f.public.checked;
      if (signedIn && !f.rated.disabled && f.rated.checked) {
        body.rated = true;
        const range = Number(f.rating_range.value);
        if (body.public && range) body.rating_range = range;
      }
    }
    remember(form, fields);
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
