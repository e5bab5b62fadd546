// @ts-check
// docs.html: loads the wasm module on the main thread (the examples are tiny), fetches
// the-verdict.txt, and for every example of examples.js shows its source and a Run button whose
// output is printed as text. No eval: the source shown is Function.prototype.toString of the very
// function the button runs. It does not use the worker or the page's state (web/src/).
import createEmbedlab from '../embedlab.js';
import { EXAMPLES, row } from './examples.js';

/** @typedef {import('../embedlab.js').EmbedlabModule} EmbedlabModule */

/** @param {string} id */
function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`docs: #${id} missing from docs.html`);
  return el;
}

/**
 * Runs one example and renders what it printed (or its error) into out.
 * @param {EmbedlabModule} M
 * @param {string} verdict
 * @param {(M: EmbedlabModule, io: import('./examples.js').ExampleIo) => unknown} fn
 * @param {HTMLElement} out
 */
function run(M, verdict, fn, out) {
  /** @type {string[]} */
  const lines = [];
  const t0 = performance.now();
  try {
    fn(M, { verdict, print: (...parts) => lines.push(parts.map(String).join(' ')) });
    lines.push(`(${(performance.now() - t0).toFixed(0)} ms)`);
    out.classList.remove('failed');
  } catch (e) {
    lines.push(`Error: ${e instanceof Error ? e.message : String(e)}`);
    out.classList.add('failed');
  }
  out.textContent = lines.join('\n');
}

async function main() {
  const status = byId('engine-status');
  const list = byId('examples');
  byId('helper-source').textContent = row.toString();
  /** @type {HTMLButtonElement[]} */
  const buttons = [];
  /** @type {(() => void)[]} */
  const runs = [];
  for (const [name, title, fn] of EXAMPLES) {
    const section = document.createElement('section');
    section.className = 'card example';
    section.dataset.example = name;
    section.id = name;
    const h = document.createElement('h2');
    h.textContent = title;
    const code = document.createElement('pre');
    code.className = 'code';
    code.textContent = fn.toString();
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'run';
    button.textContent = 'Run';
    button.disabled = true;
    const out = document.createElement('pre');
    out.className = 'output';
    out.setAttribute('aria-live', 'polite');
    out.setAttribute('aria-label', `output of ${title}`);
    section.append(h, code, button, out);
    list.append(section);
    buttons.push(button);
    runs.push(() => button.click());
    button.addEventListener('click', () => {
      if (engine) run(engine.M, engine.verdict, /** @type {any} */ (fn), out);
    });
  }
  /** @type {{M: EmbedlabModule, verdict: string} | null} */
  let engine = null;
  try {
    const [M, verdict] = await Promise.all([
      createEmbedlab(),
      fetch('corpora/the-verdict.txt').then((r) => {
        if (!r.ok) throw new Error(`corpora/the-verdict.txt: HTTP ${r.status}`);
        return r.text();
      }),
    ]);
    engine = { M, verdict };
    status.textContent = `engine ready (${M.isa()})`;
    status.classList.add('ok');
    for (const b of buttons) b.disabled = false;
    const all = /** @type {HTMLButtonElement} */ (byId('run-all'));
    all.disabled = false;
    all.addEventListener('click', () => runs.forEach((r) => r()));
  } catch (e) {
    status.textContent = `engine failed to load: ${e instanceof Error ? e.message : String(e)}`;
    status.classList.add('bad');
  }
}

main();
