// Hoyito in the browser. The pieces:
//   api.js          the server's HTTP API and the seats this browser holds
//   router.js       which page a path shows, links that navigate
//   nav.js          navigate(path): the pages' way to another page, without a reload
//   pwa.js          the service worker (offline app); whether the server answers
//   local/*.js      games on this device: WebAssembly rules (wasm/), engine worker, IndexedDB;
//                   puzzles from the server or, offline, from the pack the app keeps (local/puzzles.js)
//   html.js         the one way to write HTML: escaped templates, Trusted Types
//   ui.js           side names, the toast, a refusal's text in the reader's language
//   i18n.js         the language and t(); its strings in i18n/en.js, es.js, ht.js
//   board.js        the SVG board
//   sowing.js       a move's sowing shown seed by seed from its trace (game and How to play)
//   markdown.js     the rules page's Markdown
//   pages/*.js      new game, games (the lobby and the list), rules, how to play,
//                   the account (sign in and up, recovery, sign out, deletion),
//                   the analysis board (pages/board.js, /analysis), puzzles (pages/puzzle.js,
//                   /puzzles; the streak, pages/streak.js; both play through pages/puzzle-play.js),
//                   the exercises of a game's mistakes (pages/mistakes.js, /g/<id>/learn),
//                   a player's ratings (pages/player.js, /@/name; its chart pages/rating-chart.js),
//                   the leaderboard (pages/leaderboard.js, /leaderboard)
//   ratings.js      pools, ratings with "?" while provisional, rating changes
//   game/view.js    the game page, built from
//     game/state.js     what the page knows: the server's view, seats, turns, frames
//     game/render.js    drawing the state
//     game/animation.js the queue of moves to show, each sown (sowing.js)
//     game/pace.js      the animation's pauses per speed, shortened for long moves
//     game/socket.js    the live WebSocket, reconnecting
//     game/input.js     clicks, keys and the requests they make
//     game/analysis.js  post-game analysis: progress, marks, best move, line, play from here
//     game/graph.js     the evaluation graph (SVG)
//     game/mistakes.js  the moves of an analysed game that lost the result: "Learn from your mistakes"
//     game/endings.js   abort, draw offers, how it ended, Rematch and New game
//     game/clock.js     the clocks, as the server keeps them
//     game/alerts.js    your-move badge, sound and notification (opt-in); the sounds switch
//     game/sounds.js    the game's sounds (WebAudio): sowing, captures, the clock's last seconds
//     game/chat.js      chat of online games
//     game/join.js      joining by invite link; the account's seat taken on this device
//     game/share.js     a link to the position shown, an image of the board

import { startRouter } from './router.js';
import { registerServiceWorker } from './pwa.js';

startRouter();
registerServiceWorker();
