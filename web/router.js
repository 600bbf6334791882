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
  // The exercises of a game's mistakes, loaded when first shown.
  const learn = /^\/g\/([A-Za-z0-9]+)\/learn\/?$/.exec(path);
  if (learn) return () => lazy(() => import('./pages/mistakes.js'), (mod) => mod.mistakesPage(app, learn[1]));
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
  if (/^\/puzzles\/streak\/?$/.test(path)) return () => lazy(() => import('./pages/streak.js'), (mod) => mod.streakPage(app));
  const pz = /^\/puzzles(?:\/([A-Za-z0-9-]+))?\/?$/.exec(path);
  if (pz) return () => lazy(() => import('./pages/puzzle.js'), (mod) => mod.puzzlePage(app, pz[1]));
  if (path === '/' || path === '/new') return () => newGamePage(app);
  return () => notFoundPage(app);
}

/** Loads and shows the analysis board (pages/board.js); its teardown once it shows. */
const analysisBoard = () => lazy(() => import('./pages/board.js'), (mod) => mod.boardPage(app));

/**
 * Loads a page's module (`load()`), waits for what it needs (its
 * `loaded()`), then shows it (`show(module)`, which returns its teardown);
 * returns the teardown, which also stops a page still loading.
 */
function lazy(load, show) {
  let stop = null;
  let gone = false;
  load().then(async (mod) => {
    await mod.loaded();
    if (!gone) stop = show(mod);
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
