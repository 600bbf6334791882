// The engine of games on this device, in a Web Worker so that the page
// never waits for a search. Each message asks for one move:
//   {job, setup, steps, level, timeMs?}
// where `setup` opens the game's room and `steps` are its stored step
// tokens (replayed by the room, so the engine sees the repetition history);
// the answer is
//   {job, move, error}.

import init, { Room } from '../wasm/hoyito_wasm.js';

const ready = init();

self.onmessage = async (e) => {
  const { job, setup, steps, level, timeMs } = e.data;
  let room = null;
  try {
    await ready;
    room = new Room(setup, steps, 0);
    const move = room.bestMove(level, timeMs);
    self.postMessage({ job, move, error: null });
  } catch (err) {
    self.postMessage({ job, move: null, error: String(err && err.message ? err.message : err) });
  } finally {
    if (room) room.free();
  }
};
