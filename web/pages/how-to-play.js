// The How-to-play page: the game for a new player, section by section, each
// with a small board that shows it (the game's own board, sown seed by seed
// like a move on the game page, by the rules' own code in the WebAssembly
// module), and the full rules one click away.

import { t } from '../i18n.js';
import { Board } from '../board.js';
import { Game } from '../wasm/hoyito_wasm.js';
import { ready } from '../local/backend.js';
import { html, setHtml } from '../html.js';
import { showSowing } from '../sowing.js';

const reduced = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

// Each demonstration: a 2×4 board (South's row first), the hole South
// sows, the variant, and a caption key.
const DEMOS = {
  board: { board: [4, 4, 4, 4, 4, 4, 4, 4] },
  sowing: { board: [0, 3, 0, 0, 0, 2, 1, 0], hole: 1, variant: 'I' },
  relay: { board: [0, 2, 0, 1, 0, 0, 2, 0], hole: 1, variant: 'I' },
  captureI: { board: [0, 3, 3, 0, 0, 1, 0, 2], hole: 1, variant: 'I' },
  captureII: { board: [2, 3, 3, 0, 1, 0, 2, 0], hole: 0, variant: 'II' },
  captureIII: { board: [2, 3, 3, 0, 1, 0, 2, 0], hole: 0, variant: 'III' },
  match: { board: [4, 4, 4, 0, 4, 4, 0, 0], closed: [3, 6, 7] },
};

/**
 * Sows demonstration `d` (South sows hole `d.hole` of `d.board` on a 2×4
 * board under `d.variant`) with the rules' own code: the sowing events,
 * the board after, the seeds captured, and whether South moves again.
 */
async function sow(d) {
  await ready();
  const game = Game.fromSetup({ variant: d.variant, holes: 4 }, { board: d.board });
  try {
    const moved = game.play(String(d.hole + 1));
    return { events: moved.trace.events, board: game.state().board, captured: moved.captured, again: moved.extra_turn };
  } finally {
    game.free();
  }
}

const pause = (ms, live) => new Promise((r) => { setTimeout(r, live.stopped ? 0 : ms); });

/** Plays demonstration `d` once on `board`, telling the hand's seeds in `hud`. */
async function play(d, board, hud, live) {
  const b = d.board.slice();
  const cap = [0, 0];
  const draw = () => board.render({ board: b, closed: d.closed || [], captured: cap, labels: true });
  draw();
  if (d.hole === undefined) return;
  const result = await sow(d);
  if (reduced()) {
    board.render({ board: result.board, captured: [result.captured, 0], last: { from: [d.hole], captured: [] } });
    return;
  }
  board.mark(d.hole, 'selected', true);
  await pause(900, live);
  board.mark(d.hole, 'selected', false);
  await showSowing(board, {
    from: { board: d.board, captured: [0, 0], closed: d.closed },
    mover: 0,
    events: result.events,
    pace: { lap: 650, seed: 420, cap: 800 },
    wait: (ms) => pause(ms, live),
    stopped: () => live.stopped,
    hud: (text) => { hud.textContent = text; },
    show: { labels: true },
  });
  if (!live.stopped) hud.textContent = result.again ? t('help.again') : '';
}

/** Shows the How-to-play page in `app`; returns its teardown. */
export function howToPlayPage(app) {
  document.title = `Hoyito — ${t('help.title')}`;
  const section = (key) => html`<section class="card help" aria-labelledby="h-${key}">
    <h2 id="h-${key}">${t(`help.${key}.title`)}</h2>
    <p>${t(`help.${key}.text`)}</p>
    <div class="demo" data-demo="${key}"><div class="demo-board"></div>
      <p class="hud muted" aria-live="off"></p>
      ${DEMOS[key].hole !== undefined ? html`<button type="button" class="replay">${t('help.replay')}</button>` : ''}</div>
  </section>`;
  setHtml(app, html`<section class="card narrow"><h1>${t('help.title')}</h1><p>${t('help.intro')}</p>
    <p><a href="/rules" data-nav>${t('help.full_rules')}</a></p></section>
    ${Object.keys(DEMOS).map(section)}
    <section class="card narrow"><h2>${t('help.end.title')}</h2><p>${t('help.end.text')}</p></section>
    <section class="card narrow"><h2>${t('help.play.title')}</h2><p>${t('help.play.text')}</p>
    <p><a href="/rules" data-nav>${t('help.full_rules')}</a> · <a href="/" data-nav>${t('notfound.link')}</a></p></section>`);
  const live = { stopped: false };
  for (const el of app.querySelectorAll('[data-demo]')) {
    const d = DEMOS[el.dataset.demo];
    const board = new Board(el.querySelector('.demo-board'), 4, () => {});
    const hud = el.querySelector('.hud');
    let running = null;
    const run = () => { if (!running) running = play(d, board, hud, live).finally(() => { running = null; }); };
    run();
    const again = el.querySelector('.replay');
    if (again) again.addEventListener('click', run);
  }
  return () => { live.stopped = true; };
}
