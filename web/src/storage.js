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
// The same database holds the autosaved sessions (session.js): store 'session', one record per
// key, each written by the one side that owns it: 'settings' {hash, savedAt} and 'draft'
// {text, savedAt} by the page, 'train' {key, step, checksum, state (checkpoint bytes), curve,
// savedAt} by the worker (train-handler.js).
//   await putRecord(recordKey('train', tab), record);   await getRecord(recordKey('train', tab));
//
// Schema (SESSION_VERSION 2): each tab has its own records, keyed 'NAME@TAB' (TAB: the tab's id,
// session.js), and each record carries {v: 2, tab}. Two tabs never write the same record, so
// neither overwrites the other's run; a new tab starts from a copy of the newest saved session
// (copySession) and the Start over dialog offers the others. Version 1 (unversioned records
// 'settings', 'draft', 'train' shared by every tab) is migrated by migrateSession(tab): the
// first tab that opens after the upgrade takes them as its own. A record of a later version
// (a newer page in another tab) is left alone and not read.
//
// Budget: the texts and the sessions together stay under budgetBytes() (OWN_BUDGET_BYTES, or half
// the origin's quota from navigator.storage.estimate() when that is smaller). After each write,
// enforceBudget() evicts least recently used first: texts by their last use (getText marks it)
// and other tabs' sessions by their last save; the record just written and the writing tab's
// session are never evicted. storageUsage() gives the figures the Start over dialog shows.

const DB_NAME = 'embedlab';
export const SESSION_VERSION = 2;
export const SESSION_NAMES = ['settings', 'draft', 'train'];
export const OWN_BUDGET_BYTES = 64 * 1024 * 1024;
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

export async function putText(hash, bytes, keepTab = null) {
  const now = Date.now();
  await withStore('readwrite', (s) => s.put({ bytes, saved: now, usedAt: now }, hash));
  await enforceBudget({ keepText: hash, keepTab });
}

// The text's bytes (null when absent); marks it used now (the budget evicts the least recently used).
export async function getText(hash) {
  const rec = await withStore('readwrite', (s) => {
    const req = s.get(hash);
    req.onsuccess = () => {
      if (req.result) s.put({ ...req.result, usedAt: Date.now() }, hash);
    };
    return req;
  });
  return rec && rec.bytes ? new Uint8Array(rec.bytes) : null;
}

// ---- the autosaved sessions (session.js, train-handler.js) ----

// (record name, tab id) -> its key: 'train@k3j9...'; without a tab (Node tests) the name alone.
export const recordKey = (name, tab) => (tab ? `${name}@${tab}` : name);
// key -> {name, tab} ('train@x' -> {name: 'train', tab: 'x'}; 'train' -> {name: 'train', tab: ''})
export function splitKey(key) {
  const at = String(key).indexOf('@');
  return at < 0 ? { name: String(key), tab: '' } : { name: key.slice(0, at), tab: key.slice(at + 1) };
}

// subtle: the budget check reads every record (IndexedDB has no size query), so the frequent
// session writes (a run every 2 s) check it at most every BUDGET_CHECK_MS; a stored text, always.
const BUDGET_CHECK_MS = 30000;
let lastCheck = -Infinity;

export async function putRecord(key, value) {
  await withStore('readwrite', (s) => s.put(value, key), SESSION);
  // the page's own small records (settings, a draft) never push past the budget: the worker's run and texts do
  if (splitKey(key).name !== 'train' || Date.now() - lastCheck < BUDGET_CHECK_MS) return;
  lastCheck = Date.now();
  await enforceBudget({ keepTab: splitKey(key).tab });
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

// Every [key, value] of a store (cursor walk in one transaction).
async function entries(store) {
  return withStore('readonly', (s) => {
    const out = [];
    const req = s.openCursor();
    req.onsuccess = () => {
      const c = req.result;
      if (!c) return;
      out.push([c.key, c.value]);
      c.continue();
    };
    return { get result() { return out; } };
  }, store);
}

// Version 1 -> 2: the shared, unversioned 'settings', 'draft' and 'train' become this tab's
// (unless it has its own already). -> the names migrated
export async function migrateSession(tab) {
  const moved = [];
  await withStore('readwrite', (s) => {
    for (const name of SESSION_NAMES) {
      const req = s.get(name);
      req.onsuccess = () => {
        const old = req.result;
        if (!old || (old.v !== undefined && old.v !== 1)) return;
        const own = s.get(recordKey(name, tab));
        own.onsuccess = () => {
          if (!own.result) s.put({ ...old, v: SESSION_VERSION, tab }, recordKey(name, tab));
          s.delete(name);
          moved.push(name);
        };
      };
    }
    return { result: moved };
  }, SESSION);
  return moved;
}

// Approximate bytes a record holds: its byte arrays plus 2 bytes a character of its strings.
function recordBytes(v) {
  if (v === null || v === undefined) return 0;
  if (ArrayBuffer.isView(v)) return v.byteLength;
  if (v instanceof ArrayBuffer) return v.byteLength;
  if (typeof v === 'string') return 2 * v.length;
  if (typeof v !== 'object') return 8;
  let n = 0;
  for (const x of Array.isArray(v) ? v : Object.values(v)) n += recordBytes(x);
  return n;
}

// The saved sessions, newest first: [{tab, savedAt, hash, step, bytes, names, newer}] (newer: a
// record of a later schema is among them: left alone). Records of version 1 count under tab ''.
export async function listSessions() {
  const byTab = new Map();
  for (const [key, value] of await entries(SESSION)) {
    const { name, tab } = splitKey(key);
    const s = byTab.get(tab) || { tab, savedAt: 0, hash: '', step: null, bytes: 0, names: [], newer: false };
    byTab.set(tab, s);
    s.names.push(name);
    s.bytes += recordBytes(value);
    s.savedAt = Math.max(s.savedAt, (value && value.savedAt) || 0);
    if (value && value.v > SESSION_VERSION) s.newer = true;
    if (name === 'settings' && value) s.hash = value.hash || '';
    if (name === 'train' && value) s.step = value.step;
  }
  return [...byTab.values()].sort((a, b) => b.savedAt - a.savedAt);
}

// Copies session `from`'s records to tab `to` (a new tab starting from a saved run; the source
// stays as it is, so the tab that saved it is never overwritten).
export async function copySession(from, to) {
  const recs = [];
  for (const name of SESSION_NAMES) {
    const v = await getRecord(recordKey(name, from));
    if (v && !(v.v > SESSION_VERSION)) recs.push([name, v]);
  }
  await withStore('readwrite', (s) => {
    for (const [name, v] of recs) s.put({ ...v, v: SESSION_VERSION, tab: to }, recordKey(name, to));
    return { result: recs.length };
  }, SESSION);
  return recs.map(([name]) => name);
}

export function deleteSession(tab) {
  return withStore('readwrite', (s) => {
    for (const name of SESSION_NAMES) s.delete(recordKey(name, tab));
    return { result: true };
  }, SESSION);
}

// The budget: OWN_BUDGET_BYTES, or half the origin's quota when the browser says that is less.
export async function budgetBytes() {
  try {
    const est = typeof navigator !== 'undefined' && navigator.storage && navigator.storage.estimate ? await navigator.storage.estimate() : null;
    if (est && est.quota > 0) return Math.min(OWN_BUDGET_BYTES, Math.floor(est.quota / 2));
  } catch {
    // no estimate here: the page's own budget
  }
  return OWN_BUDGET_BYTES;
}

// What is kept: {total, budget, texts: [{key, bytes, usedAt}], sessions: (listSessions)}.
export async function storageUsage() {
  const texts = (await entries(STORE)).map(([key, v]) => ({ key, bytes: recordBytes(v && v.bytes), usedAt: (v && (v.usedAt || v.saved)) || 0 }));
  const sessions = await listSessions();
  const total = texts.reduce((n, t) => n + t.bytes, 0) + sessions.reduce((n, s) => n + s.bytes, 0);
  return { total, budget: await budgetBytes(), texts, sessions };
}

// Evicts least recently used texts and other tabs' sessions until the total is within the budget
// (budget: a number to use instead of budgetBytes()). -> {evicted: [{kind, key, bytes}], total, budget}
export async function enforceBudget({ keepText = null, keepTab = null, budget = null } = {}) {
  const u = await storageUsage();
  const limit = budget ?? u.budget;
  let total = u.total;
  const evicted = [];
  if (total <= limit) return { evicted, total, budget: limit };
  const candidates = [
    ...u.texts.filter((t) => t.key !== keepText).map((t) => ({ kind: 'text', key: t.key, bytes: t.bytes, at: t.usedAt })),
    ...u.sessions.filter((s) => s.tab !== keepTab && !s.newer).map((s) => ({ kind: 'session', key: s.tab, bytes: s.bytes, at: s.savedAt })),
  ].sort((a, b) => a.at - b.at);
  for (const c of candidates) {
    if (total <= limit) break;
    if (c.kind === 'text') await withStore('readwrite', (s) => s.delete(c.key));
    else await withStore('readwrite', (s) => {
      for (const name of SESSION_NAMES) s.delete(recordKey(name, c.key));
      return { result: true };
    }, SESSION);
    total -= c.bytes;
    evicted.push({ kind: c.kind, key: c.key, bytes: c.bytes });
  }
  return { evicted, total, budget: limit };
}
