// The games played on this device, kept in IndexedDB (database `hoyito`,
// store `games`, one record per game: {id, meta, epoch, steps, updated_ms}),
// so that they survive closing the browser and can be resumed offline.

const DB = 'hoyito';
const STORE = 'games';
let opening = null;

function open() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => { req.result.createObjectStore(STORE, { keyPath: 'id' }); };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => { opening = null; reject(req.error); };
    });
  }
  return opening;
}

async function run(mode, fn) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = fn(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req ? req.result : undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('the save was aborted'));
  });
}

/** The stored record of game `id`, or undefined. */
export const load = (id) => run('readonly', (s) => s.get(id));

/** Stores a game's record (replacing the previous one). */
export const save = (rec) => run('readwrite', (s) => s.put(rec));

/** Every stored game's record. */
export const loadAll = () => run('readonly', (s) => s.getAll());
