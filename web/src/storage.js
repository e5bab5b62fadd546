// The user's own text kept in this browser (IndexedDB), for texts too long for the page link
// (text-link.js decides). The link then carries a short reference, `txtdb=<hash>`: the first
// 96 bits of the SHA-256 of the text's UTF-8 bytes, hex. Used by the worker (text-handler.js),
// which holds the text; the main thread never copies megabytes. No DOM: works in a worker
// and, without IndexedDB (Node), fails with a message instead of throwing at import.
//
//   const hash = await textHash(bytes);        // 'a3f1...' (24 hex digits)
//   await putText(hash, bytes);                // IndexedDB 'embedlab' / store 'texts', key hash
//   await getText(hash)                        // Uint8Array, or null when this browser does not have it
//
// It does not evict old texts: a browser's storage pressure may (then the page says the text
// is missing and falls back to the built-in corpus).
//
// The same database holds the autosaved session (session.js): store 'session', one record per
// key, each written by the one side that owns it: 'settings' {hash, savedAt} and 'draft'
// {text, savedAt} by the page, 'train' {key, step, checksum, state (checkpoint bytes), curve,
// savedAt} by the worker (train-handler.js).
//   await putRecord('train', record);   await getRecord('train');   await clearSession();

const DB_NAME = 'embedlab';
const DB_VERSION = 2; // 1: texts; 2: + session
const STORE = 'texts';
const SESSION = 'session';
export const HASH_HEX = 24;

// bytes (Uint8Array) -> the first HASH_HEX hex digits of SHA-256(bytes).
export async function textHash(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest.subarray(0, HASH_HEX / 2), (b) => b.toString(16).padStart(2, '0')).join('');
}

function openDb() {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('storage: this browser has no IndexedDB'));
      return;
    }
    const req = indexedDB.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => {
      for (const name of [STORE, SESSION]) if (!req.result.objectStoreNames.contains(name)) req.result.createObjectStore(name);
    };
    // another tab still holds version 1 open: it is asked to close (onversionchange below)
    req.onblocked = () => {};
    req.onsuccess = () => {
      req.result.onversionchange = () => req.result.close();
      resolve(req.result);
    };
    req.onerror = () => reject(new Error(`storage: could not open IndexedDB (${req.error && req.error.message})`));
  });
}

// One transaction on the store: fn(store) -> request; resolves with the request's result.
async function withStore(mode, fn, store = STORE) {
  const db = await openDb();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(store, mode);
      const req = fn(tx.objectStore(store));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(new Error(`storage: ${tx.error && tx.error.message}`));
      tx.onabort = () => reject(new Error(`storage: ${(tx.error && tx.error.message) || 'aborted'}`));
    });
  } finally {
    db.close();
  }
}

export function putText(hash, bytes) {
  return withStore('readwrite', (s) => s.put({ bytes, saved: Date.now() }, hash));
}

export async function getText(hash) {
  const rec = await withStore('readonly', (s) => s.get(hash));
  return rec && rec.bytes ? new Uint8Array(rec.bytes) : null;
}

// ---- the autosaved session (session.js, train-handler.js) ----
export function putRecord(key, value) {
  return withStore('readwrite', (s) => s.put(value, key), SESSION);
}

export async function getRecord(key) {
  return (await withStore('readonly', (s) => s.get(key), SESSION)) ?? null;
}

export function deleteRecord(key) {
  return withStore('readwrite', (s) => s.delete(key), SESSION);
}

// Start over: every session record (the texts named by links stay: a link may still need them).
export function clearSession() {
  return withStore('readwrite', (s) => s.clear(), SESSION);
}
