// The engine of games on this device, in a Web Worker so that the page
// never waits for a search. Each message asks for one move:
//   {job, rules, match, steps, level, timeMs?}
// where `steps` are the game's stored step tokens (replayed here, so the
// engine sees the repetition history); the answer is
//   {job, move, error}.

import init, { Game, Match } from '../wasm/hoyito_wasm.js';

const ready = init();

self.onmessage = async (e) => {
  const { job, rules, match, steps, level, timeMs } = e.data;
  let play = null;
  try {
    await ready;
    play = match ? new Match(rules) : new Game(rules);
    for (const tok of steps) {
      if (tok === 'next') play.startNextRound();
      else if (tok.startsWith('concede:')) play.concede(tok.slice('concede:'.length));
      else if (!tok.startsWith('resign:')) play.play(tok);
    }
    const move = play.bestMove(level, timeMs);
    self.postMessage({ job, move, error: null });
  } catch (err) {
    self.postMessage({ job, move: null, error: String(err && err.message ? err.message : err) });
  } finally {
    if (play) play.free();
  }
};
