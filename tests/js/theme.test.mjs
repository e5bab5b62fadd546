// Plot colours and label sizes (web/src/plots/theme.js), without a DOM: the palettes' text has
// at least 4.5:1 contrast on the card in both themes, fonts and margins scale with the label
// size, series colours that are "the text colour" follow the theme, and watched plots redraw.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DARK, LIGHT, plotTheme, themeChanged, themeOf, watchTheme } from '../../web/src/plots/theme.js';

// WCAG 2 relative luminance and contrast ratio of two '#rrggbb' colours
function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

describe('theme.js palettes', () => {
  it('contrast() agrees with WCAG examples', () => {
    assert.equal(contrast('#000000', '#ffffff').toFixed(1), '21.0');
    assert.equal(contrast('#777777', '#ffffff').toFixed(2), '4.48');
  });

  for (const pal of [LIGHT, DARK]) {
    it(`${pal.name}: every text colour has at least 4.5:1 on the card`, () => {
      for (const k of ['ink', 'text', 'muted', 'label']) {
        const c = contrast(pal[k], pal.surface);
        assert.ok(c >= 4.5, `${pal.name}.${k} ${pal[k]} on ${pal.surface}: ${c.toFixed(2)}:1`);
      }
    });
    it(`${pal.name}: frames and the picked row's outline are visible (at least 3:1 for the outline)`, () => {
      assert.ok(contrast(pal.strong, pal.surface) >= 3, `${pal.name}.strong`);
      assert.ok(contrast(pal.frame, pal.surface) >= 1.8, `${pal.name}.frame`);
    });
  }

  it('the two palettes have the same keys', () => {
    assert.deepEqual(Object.keys(DARK).sort(), Object.keys(LIGHT).sort());
  });
});

describe('theme.js themeOf', () => {
  it('scales fonts to whole pixels and text-holding lengths', () => {
    assert.equal(themeOf(false, 1).font(12), '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif');
    assert.equal(themeOf(false, 1.4).font(12, '600'), '600 17px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif');
    assert.equal(themeOf(true, 0.9).font(11).slice(0, 5), '10px ');
    assert.deepEqual([themeOf(false, 1).px(58), themeOf(false, 1.4).px(58)], [58, 81]);
  });

  it('maps black and the page grey to the theme text colours; other series colours stay', () => {
    const dark = themeOf(true);
    const light = themeOf(false);
    assert.equal(dark.colour('#000000'), DARK.ink);
    assert.equal(dark.colour('#3b4450'), DARK.text);
    assert.equal(dark.colour('#0072B2'), '#0072B2');
    assert.equal(light.colour('#000000'), LIGHT.ink);
    assert.equal(light.colour('#E69F00'), '#E69F00');
  });

  it('without a document, plotTheme is the light theme at scale 1', () => {
    const th = plotTheme(null);
    assert.deepEqual([th.name, th.dark, th.scale], ['light', false, 1]);
  });
});

describe('theme.js watchTheme', () => {
  it('themeChanged() calls themeChanged on every watched plot', () => {
    const calls = [];
    const a = { themeChanged: () => calls.push('a') };
    const b = { themeChanged: () => calls.push('b') };
    watchTheme(a);
    watchTheme(b);
    themeChanged();
    assert.deepEqual(calls.sort(), ['a', 'b']);
  });
});
