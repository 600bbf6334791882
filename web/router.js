// The one-page app's router: which page a path shows, links that navigate
// without a reload, the language buttons (English, Spanish, Kreyòl).

import { setLang, getLang, translatePage, t } from './i18n.js';
import { newGamePage } from './pages/new-game.js';
import { gamesPage } from './pages/games.js';
import { rulesPage } from './pages/rules.js';
import { notFoundPage } from './pages/not-found.js';
import { howToPlayPage } from './pages/how-to-play.js';
import { aboutPage } from './pages/about.js';
import { accountPage } from './pages/account.js';
import { playerPage } from './pages/player.js';
import { leaderboardPage } from './pages/leaderboard.js';
import { gamePage } from './game/view.js';
import { navigate, onNavigate } from './nav.js';

const app = document.getElementById('app');
let teardown = null;

/** The page for `path`: a function that shows it and may return its teardown. */
function pageFor(path) {
  const m = /^\/g\/([A-Za-z0-9]+)\/?$/.exec(path);
  if (m) return () => gamePage(app, m[1]);
  if (path === '/games') return () => gamesPage(app);
  if (path === '/rules') return () => rulesPage(app);
  if (path === '/how-to-play') return () => howToPlayPage(app);
  if (path === '/about') return () => aboutPage(app);
  if (path === '/account') return () => accountPage(app);
  // A player's page: /@/<username>, the name percent-encoded.
  const pl = /^\/@\/([^/]+)\/?$/.exec(path);
  if (pl) {
    let name = null;
    try { name = decodeURIComponent(pl[1]); } catch { name = null; }
    if (name) return () => playerPage(app, name);
  }
  if (path === '/leaderboard') return () => leaderboardPage(app);
  // The analysis board is loaded when first shown.
  if (path === '/analysis') return () => analysisBoard();
  const pz = /^\/puzzles(?:\/([A-Za-z0-9-]+))?\/?$/.exec(path);
  if (pz) return () => puzzle(pz[1]);
  if (path === '/' || path === '/new') return () => newGamePage(app);
  return () => notFoundPage(app);
}

/** Loads and shows the analysis board (pages/board.js); its teardown once it shows. */
function analysisBoard() {
  let stop = null;
  let gone = false;
  import('./pages/board.js').then(async (m) => {
    await m.loaded();
    if (!gone) stop = m.boardPage(app);
  }).catch((e) => { console.error(e); notFoundPage(app); });
  return () => { gone = true; if (stop) stop(); };
}

/** Loads and shows a puzzle (pages/puzzle.js): `id`, or the next of the set. */
function puzzle(id) {
  let stop = null;
  let gone = false;
  import('./pages/puzzle.js').then(async (m) => {
    await m.loaded();
    if (!gone) stop = m.puzzlePage(app, id);
  }).catch((e) => { console.error(e); notFoundPage(app); });
  return () => { gone = true; if (stop) stop(); };
}

/** Shows the page of the current address. */
export function route() {
  if (teardown) teardown();
  teardown = null;
  translatePage();
  for (const b of document.querySelectorAll('[data-lang]')) b.setAttribute('aria-pressed', String(b.dataset.lang === getLang()));
  document.querySelector('.lang').setAttribute('aria-label', t('lang.switch'));
  document.querySelector('header nav').setAttribute('aria-label', t('nav.label'));
  const p = location.pathname;
  for (const a of document.querySelectorAll('header nav a')) {
    const href = a.getAttribute('href');
    if (href === p || (href === '/' && p === '/new')) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  const done = pageFor(p)();
  teardown = typeof done === 'function' ? done : null;
}

/** Wires links with data-nav, the back button and the language buttons. */
export function startRouter() {
  onNavigate(route);
  document.addEventListener('click', (e) => {
    const a = e.target.closest('a[data-nav]');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(a.getAttribute('href'));
  });
  window.addEventListener('popstate', route);
  for (const b of document.querySelectorAll('[data-lang]')) {
    b.addEventListener('click', () => { setLang(b.dataset.lang); route(); });
  }
  route();
}
