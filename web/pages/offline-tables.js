// "Endgame tables on this device", on the analysis board: for each set of
// the server's default tables (GET /api/tables) its download size and a
// Download button; while downloading, a progress bar; once stored, the
// size kept and a Remove button; how much is stored in all. Offline, the
// sets stored are listed (they can be removed). The files and the probes
// are local/tables.js's.

import { t, getLang } from '../i18n.js';
import { html, setHtml } from '../html.js';
import { errorText } from '../ui.js';
import { tableManifest, storedSets, downloadSet, removeSet, sizeText } from '../local/tables.js';

const setKey = (s) => `${s.variant}-2x${s.holes}`;

/** Draws the control into `box` (a <section>); returns its teardown. */
export function offlineTablesControl(box) {
  const st = { sets: [], stored: new Map(), online: true, busy: null, progress: [0, 0], error: null, closed: false };
  const size = (n) => sizeText(n, getLang());

  function draw() {
    if (st.closed) return;
    const total = [...st.stored.values()].reduce((a, s) => a + s.bytes, 0);
    // Offline: the sets stored, whatever the server offers.
    const shown = st.online ? st.sets : [...st.stored.values()];
    setHtml(box, html`<h2 id="ot-title">${t('tables.title')}</h2>
      <p class="muted">${t('tables.intro')}</p>
      ${st.online ? '' : html`<p class="muted">${t('tables.offline')}</p>`}
      <ul class="ot-sets">${shown.map((s) => {
        const key = setKey(s);
        const kept = st.stored.get(key);
        const name = t('tables.set', { variant: t(`variant.${s.variant}`), holes: s.holes, seeds: s.max_seeds });
        let state;
        if (st.busy === key) {
          const [done, all] = st.progress;
          state = html`<progress id="ot-progress" max="${all}" value="${done}" aria-label="${t('tables.downloading', { set: name })}"></progress>
            <span class="ot-status" data-done="${done}" data-total="${all}">${t('tables.progress', { done: size(done), total: size(all) })}</span>`;
        } else if (kept) {
          state = html`<span class="ot-status" data-stored="${kept.bytes}">${t('tables.kept', { size: size(kept.bytes) })}</span>
            <button type="button" class="ot-remove" data-set="${key}" aria-label="${t('tables.remove_set', { set: name })}" ${st.busy ? 'disabled' : ''}>${t('tables.remove')}</button>`;
        } else if (!s.ready) {
          state = html`<span class="ot-status muted">${t(s.building ? 'tables.building' : 'tables.missing')}</span>`;
        } else {
          state = html`<span class="ot-status" data-bytes="${s.bytes}">${t('tables.size', { size: size(s.bytes) })}</span>
            <button type="button" class="ot-download" data-set="${key}" aria-label="${t('tables.download_set', { set: name, size: size(s.bytes) })}" ${st.busy ? 'disabled' : ''}>${t('tables.download')}</button>`;
        }
        return html`<li class="ot-set" data-set="${key}"><span class="ot-name">${name}</span> ${state}</li>`;
      })}</ul>
      ${st.error ? html`<p class="ab-error" role="alert">${st.error}</p>` : ''}
      <p class="ot-total" data-bytes="${total}">${t('tables.total', { size: size(total) })}</p>`);
  }

  async function refresh() {
    const kept = await storedSets().catch(() => []);
    st.stored = new Map(kept.map((s) => [setKey(s), s]));
    try {
      st.sets = (await tableManifest()).sets;
      st.online = true;
    } catch {
      st.online = false;
    }
    draw();
  }

  box.addEventListener('click', async (e) => {
    const b = e.target.closest('button.ot-download, button.ot-remove');
    if (!b || st.busy) return;
    const key = b.dataset.set;
    st.error = null;
    if (b.classList.contains('ot-remove')) {
      const s = st.stored.get(key);
      await removeSet(s.variant, s.holes);
      await refresh();
      return;
    }
    const set = st.sets.find((s) => setKey(s) === key);
    st.busy = key;
    st.progress = [0, set.bytes];
    draw();
    try {
      await downloadSet(set, (done, total) => {
        st.progress = [done, total];
        const bar = box.querySelector('#ot-progress');
        const text = box.querySelector('.ot-status[data-total]');
        // The bar moves without redrawing the list (the focus stays put).
        if (bar && text) {
          bar.value = done;
          text.dataset.done = String(done);
          text.textContent = t('tables.progress', { done: size(done), total: size(total) });
        }
      });
    } catch (err) {
      st.error = t('tables.failed', { error: errorText(err) });
    }
    st.busy = null;
    await refresh();
  });

  refresh();
  return () => { st.closed = true; };
}
