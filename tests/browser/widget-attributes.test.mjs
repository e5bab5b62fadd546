// Browser test of <embedlab-view> attributes (web/src/element.js) on article.html, with widgets
// added to the article by the test: the positional parameters ('rope.base', 't5.num_buckets',
// keys that exist only once the engine has sent its registry) are drawn with, a later change of
// such an attribute (or of the widget's own field for it) redraws, and bad attributes (an unknown
// card, T="abc") are listed once at the top of the widget and on console.warn, while the widget
// stays the size of one card. Screenshots: widget-params.png, widget-bad-attributes.png.
//   node tests/browser/widget-attributes.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, startHarness } from './harness.mjs';

const h = await startHarness('widget attribute tests');
const { test, consoleErrors, shot } = h;

const warnings = [];
const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
page.on('console', (m) => {
  if (m.type() === 'error') consoleErrors.push(m.text());
  if (m.type() === 'warning') warnings.push(m.text());
});
page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
await page.goto(`${h.url}article.html`);

// A widget with these attributes at the top of the article (in view: it starts at once).
async function addWidget(id, attrs) {
  await page.evaluate(([i, a]) => {
    const el = document.createElement('embedlab-view');
    el.id = i;
    for (const [k, v] of Object.entries(a)) el.setAttribute(k, v);
    document.querySelector('main').prepend(el);
    el.scrollIntoView(); // a widget starts once near the viewport
  }, [id, attrs]);
}
const renders = (id) => page.$eval(`#${id}`, (el) => Number(el.dataset.renders || 0));
async function waitRenders(id, above, timeout = 30000) {
  await page.waitForFunction(([i, n]) => Number(document.getElementById(i).dataset.renders || 0) > n, [id, above], { timeout });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
// the drawn parameter values of the widget's card of kind `kind` ({} when drawn without any)
const drawnParams = (id, kind) => page.$eval(`#${id}`, (el, k) => {
  const card = el.shadowRoot.querySelector(`article.card[data-kind="${k}"]`);
  return { params: JSON.parse(card.dataset.params || '{}'), title: card.querySelector('.subplot-title').textContent };
}, kind);

await test('rope.base="500" and t5.num_buckets="8": the cards are drawn with them; a later attribute change redraws', async () => {
  await addWidget('params', { view: 'positions', seed: '7', pd: '16', T: '24', 'rope.base': '500', 't5.num_buckets': '8', controls: 'rope.base' });
  await waitRenders('params', 0);
  const rope = await drawnParams('params', 'rope');
  assert(rope.params.base === 500 && /base 500/.test(rope.title), `rope card drawn with ${JSON.stringify(rope)}`);
  const t5 = await drawnParams('params', 't5');
  assert(t5.params.num_buckets === 8 && /num buckets 8/.test(t5.title), `t5 panel drawn with ${JSON.stringify(t5)}`);
  const notes = await page.$eval('#params', (el) => el.shadowRoot.querySelector('.embedlab-notes').textContent);
  assert(notes === '', `notes: ${notes}`);
  // the attribute, set later (not observable by an observedAttributes list fixed at define())
  let n = await renders('params');
  await page.$eval('#params', (el) => el.setAttribute('rope.base', '2000'));
  await waitRenders('params', n);
  const later = await drawnParams('params', 'rope');
  assert(later.params.base === 2000 && /base 2,?000/.test(later.title), `after rope.base=2000: ${JSON.stringify(later)}`);
  // the widget's own field for it sets the attribute, which redraws
  n = await renders('params');
  const field = page.locator('#params').locator('.embedlab-controls input[name="rope.base"]');
  await field.fill('800');
  await field.press('Enter');
  await waitRenders('params', n);
  assert((await page.$eval('#params', (el) => el.getAttribute('rope.base'))) === '800', 'the field did not set the attribute');
  const field800 = await drawnParams('params', 'rope');
  assert(field800.params.base === 800, `after the field: ${JSON.stringify(field800)}`);
  n = await renders('params');
  await page.$eval('#params', (el) => el.setAttribute('t5.num_buckets', '4'));
  await waitRenders('params', n);
  assert((await drawnParams('params', 't5')).params.num_buckets === 4, 't5.num_buckets=4 was not drawn');
  await page.locator('#params article.card[data-kind="rope"]').screenshot({ path: shot('widget-params.png') });
  console.log(`     (rope: ${rope.title}; then ${later.title}; t5: ${t5.title})`);
});

await test('card="sinus" T="abc": the ignored attributes once at the top and on console.warn; the widget stays one card tall', async () => {
  await page.$eval('#params', (el) => el.remove());
  warnings.length = 0;
  await addWidget('bad', { view: 'positions', card: 'sinus', T: 'abc', seed: '3', pd: '16' });
  await waitRenders('bad', 0);
  const layout = await page.$eval('#bad', (el) => {
    const root = el.shadowRoot;
    const notes = root.querySelector('.embedlab-notes');
    const cards = [...root.querySelectorAll('article.card')].filter((c) => c.offsetParent !== null);
    return {
      height: el.getBoundingClientRect().height,
      lines: [...notes.querySelectorAll('p')].map((p) => p.textContent),
      notesTop: notes.getBoundingClientRect().top,
      firstCardTop: cards.length ? cards[0].getBoundingClientRect().top : null,
      cards: cards.map((c) => c.dataset.kind || c.querySelector('h3').textContent.trim()),
      everyCardNotes: root.querySelectorAll('.embedlab-notes').length,
    };
  });
  assert(layout.lines.length === 2, `notes: ${JSON.stringify(layout.lines)}`);
  assert(layout.lines.some((l) => /ignored T=abc/.test(l)) && layout.lines.some((l) => /ignored card=sinus .*showing its first card/.test(l)), `notes: ${JSON.stringify(layout.lines)}`);
  assert(layout.everyCardNotes === 1 && layout.notesTop < layout.firstCardTop, `notes at ${layout.notesTop}, first card at ${layout.firstCardTop}`);
  assert(layout.cards.length === 1, `cards shown for an unknown card: ${layout.cards.join(', ')}`);
  assert(layout.height < 1500, `the widget is ${layout.height} px tall for a bad card name`);
  const said = warnings.filter((w) => w.startsWith('<embedlab-view> #bad'));
  assert(said.length === 1 && /ignored T=abc/.test(said[0]) && /ignored card=sinus/.test(said[0]), `console.warn: ${JSON.stringify(warnings)}`);
  // a re-render with the same bad attributes does not warn again
  const n = await renders('bad');
  await page.$eval('#bad', (el) => el.setAttribute('seed', '4'));
  await waitRenders('bad', n);
  assert(warnings.filter((w) => w.startsWith('<embedlab-view> #bad')).length === 1, `warned again: ${JSON.stringify(warnings)}`);
  await page.locator('#bad').screenshot({ path: shot('widget-bad-attributes.png') });
  console.log(`     (${Math.round(layout.height)} px; notes: ${layout.lines.join(' / ')})`);
});

await test('no console errors', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
});

await page.close();
await h.finish();
