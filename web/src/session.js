// Autosave (issue 11, "Saved work"): what the user set, typed and trained survives a reload or a
// tab crash, in this browser's IndexedDB (storage.js, store 'session'):
//   settings  the page's hash (every setting, the corpus, a short custom text), 400 ms after a change
//   draft     the custom-text box while it is being typed (before "Use this text"), 600 ms after a key
//   train     the training run as engine checkpoint bytes (tables, optimizer state, batch position;
//             src/train/checkpoint.hpp), written by the worker (trainSave, train-handler.js) every
//             2 s while playing, on pause and at the end. The page never copies them.
// On load: an address without a hash gets the saved settings (a link someone opened keeps its own);
// the first training run whose settings equal the saved run's is restored at its saved step
// (trainStart {resume: true}), bit for bit: the same table fingerprint as when it was saved.
// "Start over" clears all three and reloads the page with the defaults.
//
// Without IndexedDB (some private windows) nothing is saved and the status line says so; the
// page works as before.
//
//   const session = new Session({ status, startOver, dialog });
//   const hash = await session.restoreHash(location.hash);   // '' or the saved hash
//   session.saveSettings(hash);   session.watchDraft(textarea, useButton);   session.resume (true until the first run)
import { clearSession, deleteRecord, getRecord, putRecord } from './storage.js';

const SETTINGS_DELAY_MS = 400;
const DRAFT_DELAY_MS = 600;

function clock(t) {
  return new Date(t).toLocaleTimeString('en-GB');
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
    if (startOver && dialog) {
      startOver.addEventListener('click', () => {
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

  // The hash to read: the address's own, else the last saved one ('' when none).
  async restoreHash(hash) {
    if (!this.enabled) return hash;
    const h = String(hash || '').replace(/^#/, '');
    if (h) return h;
    try {
      const rec = await getRecord('settings');
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

  // After the first render: the draft of the text box, when the box is empty.
  async restoreDraft(textarea, caption) {
    if (!this.enabled || textarea.value) return;
    try {
      const rec = await getRecord('draft');
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
    this.debounce('settings', SETTINGS_DELAY_MS, () => putRecord('settings', { hash: String(hash).replace(/^#/, ''), savedAt: Date.now() }));
  }

  // The text box: saved while typed; dropped once it is the corpus (the link or txtdb keeps it).
  watchDraft(textarea, useButton) {
    if (!this.enabled) return;
    textarea.addEventListener('input', () => {
      const text = textarea.value;
      this.debounce('draft', DRAFT_DELAY_MS, () => (text ? putRecord('draft', { text, savedAt: Date.now() }) : deleteRecord('draft')));
    });
    useButton.addEventListener('click', () => {
      clearTimeout(this.timers.draft);
      deleteRecord('draft').catch((err) => this.disable(err));
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
