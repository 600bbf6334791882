// The engine of games on this device, in a Web Worker so that the page
// never waits for a search. Each message asks for one move:
//   {job, setup, steps, level, timeMs?}
// where `setup` opens the game's room and `steps` are its stored step
// tokens (replayed by the room, so the engine sees the repetition history);
// the answer is
//   {job, move, error}.
// The analysis board asks for every move's estimate of a position instead:
//   {job, analyze: {options, setup}, level, timeMs}
// (`Game.fromSetup(options, setup)`), answered by {job, analysis, error}
// with `Game.analyze`'s result.

import init, { Game, Room } from '../wasm/hoyito_wasm.js';

const ready = init();

self.onmessage = async (e) => {
  const { job, setup, steps, level, timeMs, analyze } = e.data;
  let room = null;
  try {
    await ready;
    if (analyze) {
      room = Game.fromSetup(analyze.options, analyze.setup);
      self.postMessage({ job, analysis: room.analyze({ level, timeMs }), error: null });
      return;
    }
    room = new Room(setup, steps, 0);
    const move = room.bestMove(level, timeMs);
    self.postMessage({ job, move, error: null });
  } catch (err) {
    self.postMessage({ job, move: null, error: String(err && err.message ? err.message : err) });
  } finally {
    if (room) room.free();
  }
};
