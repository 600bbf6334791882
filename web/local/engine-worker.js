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
// If the endgame tables of the game's rules are stored on this device
// (local/tables.js, downloaded from the analysis board), the worker gives
// them to its own `Tables` once and the top level's engine probes them
// (`useTables`): where they hold the position it plays perfectly, as the
// server's level 10 with its tablebases (lower levels play as they do
// there, without). Without stored tables nothing changes.

import init, { Game, Room, engineLimits } from '../wasm/hoyito_wasm.js';
import { storedTables } from './tables.js';

const ready = init();

/** Lets the engine of `room` (a `Room` or `Game`) at `level` use the stored tables of `rules`, if any. */
async function useStored(room, level, rules) {
  if (level !== engineLimits().levels) return;
  const tables = await storedTables({ variant: rules.variant, holes: rules.holes });
  if (tables) room.useTables(tables);
}

self.onmessage = async (e) => {
  const { job, setup, steps, level, timeMs, analyze } = e.data;
  let room = null;
  try {
    await ready;
    if (analyze) {
      room = Game.fromSetup(analyze.options, analyze.setup);
      const s = room.state();
      await useStored(room, level, { variant: s.variant, holes: s.holes_per_row });
      self.postMessage({ job, analysis: room.analyze({ level, timeMs }), error: null });
      return;
    }
    room = new Room(setup, steps, 0);
    await useStored(room, level, room.view().rules);
    const move = room.bestMove(level, timeMs);
    self.postMessage({ job, move, error: null });
  } catch (err) {
    self.postMessage({ job, move: null, error: String(err && err.message ? err.message : err) });
  } finally {
    if (room) room.free();
  }
};
