// Autosave (issue 11, "Saved work"): what the user set, typed and trained survives a reload or a
// tab crash, in this browser's IndexedDB (storage.js, store 'session'):
//   settings  the page's hash (every setting, the corpus, a short custom text), 400 ms after a change
//   draft     the custom-text box while it is being typed (before "Use this text"), 600 ms after a key
//   train     the training run as engine checkpoint bytes (tables, optimizer state, batch position;
//             src/train/checkpoint.hpp), written by the worker (trainSave, train-handler.js) every
//             2 s while playing, on pause and at the end. The page never copies them.
// On load: an address without a hash gets the saved settings (a link someone opened keeps its own);
// the first training run whose settings equal the saved run's is restored at its saved step
// (trainStart {resume: true, session: tab}), bit for bit: the same table fingerprint as when it was saved.
// "Start over" clears every saved session and reloads the page with the defaults.
//
// Tabs (storage.js, schema 2): each tab autosaves to its own records, keyed by the tab's id
// (sessionStorage 'embedlab-tab': it survives a reload of the tab, a new tab gets a new one), so
// two tabs never overwrite each other's run: the way browsers restore windows and editors
// restore workspaces, one saved state per window, rather than one record the last writer wins.
// A new tab without a link starts from a copy of the newest saved session; the Start over
// dialog lists every saved session with Restore (copies it into this tab and opens it) and
// what autosave keeps of its budget. A duplicated tab (which copies sessionStorage, so the id)
// is told by the other tab over BroadcastChannel 'embedlab-session' and takes a new id (said
// in the status line). Records of schema 1 (one shared set) are migrated on load.
//
// Without IndexedDB (some private windows) nothing is saved and the status line says so; the
// page works as before.
//
//   const session = new Session({ status, startOver, dialog });
//   const hash = await session.restoreHash(location.hash);   // '' or the saved hash
//   session.saveSettings(hash);   session.watchDraft(textarea, useButton);   session.resume (true until the first run)
import {
  SESSION_VERSION, clearSession, copySession, deleteRecord, deleteSession, getRecord, listSessions, migrateSession,
  putRecord, recordKey, storageUsage,
} from './storage.js';

const SETTINGS_DELAY_MS = 400;
const DRAFT_DELAY_MS = 600;

const TAB_KEY = 'embedlab-tab';
const CHANNEL = 'embedlab-session';

function clock(t) {
  return new Date(t).toLocaleTimeString('en-GB');
}

const mib = (n) => `${(n / 1048576).toFixed(n < 1048576 ? 2 : 1)} MiB`;

function newTabId() {
  const b = new Uint8Array(6);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

// This tab's id: kept in sessionStorage (a reload keeps it), new for a new tab.
function tabId() {
  try {
    let id = sessionStorage.getItem(TAB_KEY);
    if (!id) {
      id = newTabId();
      sessionStorage.setItem(TAB_KEY, id);
    }
    return id;
  } catch {
    return newTabId(); // no sessionStorage (sandboxed frame): a new id per load
  }
}

export class Session {
  // status: an element for one line of what was restored or saved; startOver: the button;
  // dialog: a <dialog> with buttons [value=confirm] and [value=cancel]; beforeClear: async () =>
  // called first (stops training and waits for a save in flight).
  constructor({ status, startOver, dialog, beforeClear = async () => {} }) {
    this.status = status;
    this.enabled = typeof indexedDB !== 'undefined';
    this.resume = this.enabled; // the first training run may be restored; main.js clears it after that run
    this.timers = {};
    this.beforeClear = beforeClear;
    this.tab = tabId();
    this.ready = this.enabled ? migrateSession(this.tab).catch((err) => this.disable(err)) : Promise.resolve();
    this.watchTabs();
    if (startOver && dialog) {
      startOver.addEventListener('click', () => {
        this.showSaved(dialog);
        dialog.showModal();
        // the safe answer has the focus; not an autofocus attribute, which a page framed by another
        // site logs as blocked at every load ("Blocked autofocusing … in a cross-origin subframe")
        dialog.querySelector('button[value="cancel"]').focus();
      });
      dialog.addEventListener('close', () => {
        if (dialog.returnValue === 'confirm') this.startOver();
      });
    }
    if (!this.enabled) this.say('This browser has no IndexedDB here: nothing is autosaved.');
  }

  say(text) {
    if (this.status) this.status.textContent = text;
  }

  // A duplicated tab has this tab's id (sessionStorage is copied): the newcomer says hello, the
  // older tab answers 'taken', and the newcomer takes a new id, so each keeps its own records.
  watchTabs() {
    if (typeof BroadcastChannel === 'undefined') return;
    this.channel = new BroadcastChannel(CHANNEL);
    this.channel.onmessage = (e) => {
      const m = e.data || {};
      if (m.type === 'hello' && m.tab === this.tab) this.channel.postMessage({ type: 'taken', tab: this.tab });
      if (m.type === 'taken' && m.tab === this.tab && !this.renamed) {
        this.renamed = true;
        this.tab = newTabId();
        try {
          sessionStorage.setItem(TAB_KEY, this.tab);
        } catch {
          // kept for this load only
        }
        this.say('This tab is a copy of another open tab: it now autosaves on its own.');
        document.body.dataset.sessionTab = this.tab;
      }
    };
    this.channel.postMessage({ type: 'hello', tab: this.tab });
    document.body.dataset.sessionTab = this.tab;
  }

  key(name) {
    return recordKey(name, this.tab);
  }

  // The hash to read: the address's own, else this tab's saved one, else a copy of the newest
  // saved session ('' when none).
  async restoreHash(hash) {
    if (!this.enabled) return hash;
    const h = String(hash || '').replace(/^#/, '');
    if (h) return h; // at once: the page reads its link without waiting for storage
    await this.ready;
    try {
      let rec = await getRecord(this.key('settings'));
      if (!(rec && rec.hash)) {
        const newest = (await listSessions()).find((s) => s.tab !== this.tab && !s.newer && s.hash);
        if (newest) {
          await copySession(newest.tab, this.tab); // a copy: the tab that saved it keeps its own
          rec = await getRecord(this.key('settings'));
        }
      }
      if (rec && rec.hash) {
        this.say(`Restored your last session (autosaved ${clock(rec.savedAt)}).`);
        document.body.dataset.sessionRestored = '1';
        return rec.hash;
      }
    } catch (err) {
      this.disable(err);
    }
    return '';
  }

  // The Start over dialog's list: what autosave keeps of its budget, and every saved session
  // with Restore (copies it into this tab, then opens its settings: its run is restored).
  async showSaved(dialog) {
    const form = dialog.querySelector('form');
    let box = form.querySelector('.session-saved');
    if (!box) {
      box = document.createElement('div');
      box.className = 'session-saved';
      form.querySelector('.slider-row').before(box);
    }
    box.replaceChildren();
    if (!this.enabled) return;
    let u;
    try {
      u = await storageUsage();
    } catch (err) {
      box.textContent = `Could not read what is saved: ${err.message}`;
      return;
    }
    const usage = document.createElement('p');
    usage.className = 'session-usage';
    usage.textContent = `Autosave keeps ${mib(u.total)} of its ${mib(u.budget)} budget in this browser: ` +
      `${u.sessions.length} saved session${u.sessions.length === 1 ? '' : 's'}, ${u.texts.length} stored text${u.texts.length === 1 ? '' : 's'}. ` +
      'Past the budget, the least recently used are removed first.';
    box.dataset.total = String(u.total);
    box.dataset.budget = String(u.budget);
    box.append(usage);
    const list = document.createElement('ul');
    list.className = 'session-list';
    for (const s of u.sessions) {
      const li = document.createElement('li');
      li.dataset.tab = s.tab;
      const what = s.hash ? (/(^|&)view=([a-z]+)/.exec(s.hash) || [])[2] || 'table' : 'no settings';
      const text = document.createElement('span');
      text.textContent = `${s.tab === this.tab ? 'This tab' : 'Saved'} ${clock(s.savedAt)}: ${what} view${s.step !== null ? `, training at step ${s.step}` : ''} (${mib(s.bytes)})` +
        (s.newer ? ', saved by a newer version of the page' : '');
      li.append(text);
      if (s.tab !== this.tab && !s.newer && s.hash) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = 'Restore';
        b.setAttribute('aria-label', `Restore the session saved at ${clock(s.savedAt)}`);
        b.addEventListener('click', () => this.restoreSession(s));
        li.append(' ', b);
      }
      list.append(li);
    }
    box.append(list);
  }

  // This tab takes a copy of session s (its own records are replaced) and opens its settings.
  async restoreSession(s) {
    try {
      await this.beforeClear();
      this.enabled = false; // nothing of this tab's run is saved over the copy
      for (const t of Object.values(this.timers)) clearTimeout(t);
      await deleteSession(this.tab);
      await copySession(s.tab, this.tab);
    } catch (err) {
      this.say(`Could not restore that session: ${err.message}`);
      return;
    }
    history.replaceState(null, '', `${location.pathname}${location.search}#${s.hash}`);
    location.reload();
  }

  // After the first render: the draft of the text box, when the box is empty.
  async restoreDraft(textarea, caption) {
    if (!this.enabled || textarea.value) return;
    try {
      await this.ready;
      const rec = await getRecord(this.key('draft'));
      if (rec && rec.text && !textarea.value) {
        textarea.value = rec.text;
        caption.textContent = `Restored the text you were typing (autosaved ${clock(rec.savedAt)}); “Use this text” tokenizes it.`;
        textarea.dataset.restored = '1';
      }
    } catch (err) {
      this.disable(err);
    }
  }

  // fn (a write of record `name`) ms after the last call. The body's data-NAME-pending is set
  // while a write is waiting or under way, and data-NAME-written counts the writes done (what the
  // browser tests wait on).
  debounce(name, ms, fn) {
    clearTimeout(this.timers[name]);
    const data = document.body.dataset;
    data[`${name}Pending`] = '1';
    this.timers[name] = setTimeout(() => {
      delete this.timers[name];
      fn().then(() => {
        data[`${name}Written`] = String(Number(data[`${name}Written`] || 0) + 1);
        if (!this.timers[name]) delete data[`${name}Pending`];
      }).catch((err) => this.disable(err));
    }, ms);
  }

  saveSettings(hash) {
    if (!this.enabled) return;
    this.debounce('settings', SETTINGS_DELAY_MS, async () => {
      await this.ready;
      await putRecord(this.key('settings'), { v: SESSION_VERSION, tab: this.tab, hash: String(hash).replace(/^#/, ''), savedAt: Date.now() });
    });
  }

  // The text box: saved while typed; dropped once it is the corpus (the link or txtdb keeps it).
  watchDraft(textarea, useButton) {
    if (!this.enabled) return;
    textarea.addEventListener('input', () => {
      const text = textarea.value;
      this.debounce('draft', DRAFT_DELAY_MS, () => (text
        ? putRecord(this.key('draft'), { v: SESSION_VERSION, tab: this.tab, text, savedAt: Date.now() })
        : deleteRecord(this.key('draft'))));
    });
    useButton.addEventListener('click', () => {
      clearTimeout(this.timers.draft);
      deleteRecord(this.key('draft')).catch((err) => this.disable(err));
    });
  }

  async startOver() {
    this.enabled = false; // no save after this point
    for (const t of Object.values(this.timers)) clearTimeout(t);
    this.say('Clearing what this browser keeps…');
    try {
      await this.beforeClear();
      await clearSession();
    } catch (err) {
      this.say(`Could not clear the saved session: ${err.message}`);
      return;
    }
    location.replace(`${location.pathname}${location.search}`);
  }

  disable(err) {
    this.enabled = false;
    this.say(`Autosave is off: ${err.message}`);
  }
}
