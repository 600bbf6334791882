// A player's page, /@/<username> (docs/API.md, "Ratings"): the account's
// rating in each pool it played rated games in ("?" while provisional),
// its rated wins, draws and losses, and for the pool chosen the chart of
// its rating after each game (pages/rating-chart.js) and its rated games,
// a page at a time (opponent, result, rating change, link to the game);
// then all its games over, filtered and head to head against another
// player (pages/player-games.js). A name no account has says so.

import { t, getLang } from '../i18n.js';
import { api } from '../api.js';
import { errorText } from '../ui.js';
import { html, setHtml } from '../html.js';
import { changeText, playerPath, poolLabel, ratingText } from '../ratings.js';
import { drawRatingChart } from './rating-chart.js';
import { showPlayerGames } from './player-games.js';
import { pagerHtml, wirePager } from './pager.js';

/** Rated games a page of the list. */
const PAGE = 10;
/** The ids of the rated games' pager. */
const PAGER = { newer: 'newer', page: 'page-of', older: 'older' };

/** The result of a game the player scored `score` in (1, 0.5, 0), as a word. */
const resultWord = (score) => t(score === 1 ? 'player.won' : score === 0 ? 'player.lost' : 'player.drew');

const date = (ms) => new Date(ms).toLocaleDateString(getLang(), { day: 'numeric', month: 'short', year: 'numeric' });

/** An opponent's name, linked to their page (a deleted account has neither). */
const opponent = (name) => (name ? html`<a href="${playerPath(name)}" data-nav>${name}</a>` : html`<span class="muted">${t('player.deleted')}</span>`);

function notFound(app, name) {
  document.title = `Hoyito — ${t('player.not_found')}`;
  setHtml(app, html`<section class="card narrow" id="no-player"><h1>${t('player.not_found')}</h1>
    <p>${t('player.not_found_text', { name })}</p>
    <p><a class="button" href="/leaderboard" data-nav>${t('lb.title')}</a></p></section>`);
}

/** The table of the player's ratings, each pool's name a button that shows its chart and games. */
function ratingsTable(ratings, chosen) {
  if (!ratings.length) return html`<p class="muted" id="no-ratings">${t('player.no_ratings')}</p>`;
  return html`<table class="games ratings"><caption class="sr-only">${t('player.ratings')}</caption><thead><tr>
    <th scope="col">${t('player.pool')}</th><th scope="col" class="num">${t('player.rating')}</th>
    <th scope="col" class="num wide-only">${t('player.games')}</th><th scope="col" class="num"><abbr title="${t('player.wdl_long')}">${t('player.wdl')}</abbr></th></tr></thead>
    <tbody>${ratings.map((r) => html`<tr data-pool="${r.pool}">
      <th scope="row"><button type="button" class="pool-pick" data-pool="${r.pool}" aria-pressed="${String(r.pool === chosen)}">${poolLabel(r.pool)}</button></th>
      <td class="num"><strong>${ratingText(r.rating, r.deviation)}</strong></td>
      <td class="num wide-only">${r.games}</td><td class="num">${r.wins} / ${r.draws} / ${r.losses}</td></tr>`)}</tbody></table>
    ${ratings.some((r) => r.provisional) ? html`<p class="muted small">${t('player.provisional_note')}</p>` : ''}`;
}

/** Shows the page of the player named `name` in `app`; returns its teardown. */
export function playerPage(app, name) {
  document.title = `Hoyito — ${name}`;
  setHtml(app, html`<section class="card narrow"><h1>${name}</h1><p class="muted">…</p></section>`);
  let gone = false;
  let chartWidth = 0;
  let redraw = null;
  const onResize = () => { if (redraw) redraw(); };
  window.addEventListener('resize', onResize);
  const histories = new Map();
  let stopGames = null;

  async function show() {
    let player;
    try {
      player = await api('GET', `/api/players/${encodeURIComponent(name)}`);
    } catch (err) {
      if (gone) return;
      if (err.status === 404) { notFound(app, name); return; }
      setHtml(app, html`<section class="card narrow"><h1>${name}</h1><p role="alert">${errorText(err)}</p></section>`);
      return;
    }
    if (gone) return;
    const { username } = player;
    document.title = `Hoyito — ${username}`;
    // The latest-played pool unless the address names one of the player's.
    const ratings = [...player.ratings].sort((a, b) => b.last_ms - a.last_ms);
    const asked = new URLSearchParams(location.search).get('pool');
    let pool = ratings.some((r) => r.pool === asked) ? asked : ratings[0]?.pool || null;
    const played = player.wins + player.draws + player.losses;
    setHtml(app, html`<section class="card narrow player-page" aria-labelledby="player-name">
      <h1 id="player-name">${username}</h1>
      <p class="muted">${t('player.since', { date: date(player.created_ms) })}</p>
      <p id="player-record">${played
        ? t('player.record', { n: played, wins: player.wins, draws: player.draws, losses: player.losses })
        : t('player.no_games')}</p>
      <h2>${t('player.ratings')}</h2>
      <div id="player-ratings">${ratingsTable(ratings, pool)}</div>
      <p><a href="/leaderboard${pool ? `?pool=${pool}` : ''}" data-nav id="to-leaderboard">${t('lb.title')}</a></p>
    </section>
    <section class="card narrow" id="pool-detail" aria-labelledby="pool-title" hidden>
      <h2 id="pool-title"></h2>
      <div id="rating-chart" class="chart-box"></div>
      <h3 id="rated-games-title">${t('player.rated_games')}</h3>
      <div id="rated-games"></div>
    </section>
    <section class="card narrow" id="player-games" aria-labelledby="pgames-title"></section>`);
    stopGames = showPlayerGames(document.getElementById('player-games'), username);
    // The address names the account as it is spelled.
    const here = `${playerPath(username)}${pool ? `?pool=${encodeURIComponent(pool)}` : ''}`;
    if (`${location.pathname}${location.search}` !== here) history.replaceState(null, '', here);
    for (const b of app.querySelectorAll('.pool-pick')) {
      b.addEventListener('click', () => {
        pool = b.dataset.pool;
        for (const o of app.querySelectorAll('.pool-pick')) o.setAttribute('aria-pressed', String(o === b));
        history.replaceState(null, '', `${playerPath(username)}?pool=${encodeURIComponent(pool)}`);
        document.getElementById('to-leaderboard').setAttribute('href', `/leaderboard?pool=${pool}`);
        showPool(pool);
      });
    }
    if (pool) showPool(pool);
  }

  /** Shows the chart and the rated games of `pool`. */
  async function showPool(pool) {
    const box = document.getElementById('pool-detail');
    let points = histories.get(pool);
    if (!points) {
      try {
        ({ points } = await api('GET', `/api/players/${encodeURIComponent(name)}/history?pool=${encodeURIComponent(pool)}`));
      } catch (err) {
        if (gone || !box.isConnected) return;
        box.hidden = false;
        setHtml(document.getElementById('rated-games'), html`<p role="alert">${errorText(err)}</p>`);
        return;
      }
      histories.set(pool, points);
    }
    if (gone || !box.isConnected || !document.querySelector(`.pool-pick[data-pool="${pool}"][aria-pressed="true"]`)) return;
    box.hidden = false;
    document.getElementById('pool-title').textContent = poolLabel(pool);
    const chart = document.getElementById('rating-chart');
    redraw = () => {
      // Drawn again only when its box's width changed (a turned phone, a resized window).
      if (!chart.isConnected || chart.clientWidth === chartWidth) return;
      chartWidth = chart.clientWidth;
      drawRatingChart(chart, points, poolLabel(pool));
    };
    chartWidth = chart.clientWidth;
    drawRatingChart(chart, points, poolLabel(pool));
    showGames(points, 0);
  }

  /** Shows page `page` of the rated games of `points` (newest first); `focus`: the pager's button to keep the focus on. */
  function showGames(points, page, focus) {
    const box = document.getElementById('rated-games');
    const games = [...points].reverse();
    const pages = Math.max(1, Math.ceil(games.length / PAGE));
    const shown = games.slice(page * PAGE, (page + 1) * PAGE);
    setHtml(box, html`<table class="games rated"><caption class="sr-only">${t('player.rated_games')}</caption><thead><tr>
      <th scope="col" class="wide-only">${t('player.date')}</th><th scope="col">${t('player.opponent')}</th>
      <th scope="col">${t('player.result')}</th><th scope="col" class="num">${t('player.rating')}</th></tr></thead>
      <tbody>${shown.map((g) => html`<tr>
        <td class="wide-only muted">${date(g.ended_ms)}</td>
        <td class="who">${opponent(g.opponent)}</td>
        <td><a href="/g/${g.game}" data-nav class="result r${String(g.score).replace('.', '')}">${resultWord(g.score)}</a></td>
        <td class="num">${ratingText(g.rating, g.deviation)} <span class="change">(${changeText(g.before, g.rating)})</span></td></tr>`)}</tbody></table>
      ${pagerHtml(PAGER, page, pages, t('player.pages'))}`);
    wirePager(PAGER, page, (to, id) => showGames(points, to, id), focus);
  }

  show();
  return () => {
    gone = true;
    if (stopGames) stopGames();
    window.removeEventListener('resize', onResize);
  };
}

