// Plot colours and text size for the page's two themes and three label sizes (issue 11,
// "Display options"). CSS decides which theme and which label size apply (style.css: the
// page's `theme` and `fs` settings as data-theme / data-fs on <html>, prefers-color-scheme for
// theme=auto, and the same attributes on an <embedlab-view> host) and tells scripts through
// two custom properties, inherited by every element under it:
//   --plot-theme  light | dark
//   --plot-scale  1 for medium labels (style.css: small 0.9, large 1.4)
// A plot reads them from its own element when it draws (plotTheme(el)), so a widget in a dark
// article and the page itself each draw in their own theme, and nothing here knows about the
// settings. Colour maps (scales.js) are data colours and stay the same in both themes; only
// the text, axes, frames, grid lines and marks around them change.
//
// Downloads (plot-export.js) are always drawn with LIGHT, at the label size shown: a PNG or
// SVG pasted into a document or a slide is on white whatever the page looked like.
//
//   const th = plotTheme(this.root);            // {...LIGHT or DARK, scale, dark, font(px, weight)}
//   ctx.font = th.font(12); ctx.fillStyle = th.text;
//   const ex = plotTheme(this.root, { light: true });   // for a download
//   watchTheme(this);   // this.themeChanged() runs when the theme or label size changes
//   themeChanged();     // main.js, after it has set data-theme / data-fs

const FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

// Text colours have at least 4.5:1 contrast on `surface` (the card) in both themes.
export const LIGHT = {
  name: 'light',
  ink: '#1d2530', // labels and values
  text: '#3b4450', // tick labels and axis titles
  muted: '#5b6775',
  frame: '#9aa3ad', // plot frames, tick marks of colour bars
  grid: '#eef0f3',
  surface: '#ffffff',
  halo: 'rgba(255, 255, 255, 0.75)', // behind a scatter label
  strong: '#111111', // the picked row's outline and marker
  strongInner: '#ffffff',
  band: '#4b3f9e', // the heatmap's bracket of rows
  point: [0, 114, 178, 110], // Okabe-Ito blue, RGBA
  matchLine: [20, 25, 35, 255], // outline of search matches on the WebGL map
  label: '#1d2530',
};

export const DARK = {
  name: 'dark',
  ink: '#e6e9ef',
  text: '#cdd3dc', // style.css --text
  muted: '#a2acb9',
  frame: '#6e7887',
  grid: '#2b3240',
  surface: '#1a1f29',
  halo: 'rgba(26, 31, 41, 0.8)',
  strong: '#f2f4f8',
  strongInner: '#111111',
  band: '#b0a4f5',
  point: [86, 180, 233, 150], // Okabe-Ito sky blue: the blue is too dark on the dark card
  matchLine: [235, 238, 244, 255],
  label: '#e6e9ef',
};

// Series colours that are "the text colour" in the light theme (Okabe-Ito's black, the page's
// grey): a line in them would vanish on the dark card, so they become the theme's ink / text.
const INK_LIKE = { '#000000': 'ink', '#000': 'ink', '#1d2530': 'ink', '#3b4450': 'text' };

// el -> {...palette, scale, dark, font(px, weight = '')}. el outside the document (or a
// browser without custom properties): light, scale 1. light: the download palette, same scale.
// The answer is kept per document or shadow root (all plots in one share the settings) until the
// current task ends or the settings change, so one draw reads the computed style once.
// subtle: not until the next animation frame: a requestAnimationFrame to clear it made the
// browser render a second frame for each one a training run draws (twice the paint work).
const perRoot = new Map(); // document or shadow root -> {dark, scale}
export function plotTheme(el, { light = false } = {}) {
  let dark = false;
  let scale = 1;
  if (el && el.isConnected && typeof getComputedStyle === 'function') {
    const root = el.getRootNode();
    let got = perRoot.get(root);
    if (!got) {
      const cs = getComputedStyle(el);
      const s = parseFloat(cs.getPropertyValue('--plot-scale'));
      got = { dark: cs.getPropertyValue('--plot-theme').trim() === 'dark', scale: Number.isFinite(s) && s > 0 ? s : 1 };
      if (!perRoot.size) queueMicrotask(() => perRoot.clear());
      perRoot.set(root, got);
    }
    ({ dark, scale } = got);
  }
  return themeOf(dark && !light, scale);
}

// The same without an element (tests, exports that know their scale).
export function themeOf(dark, scale = 1) {
  const palette = dark ? DARK : LIGHT;
  return {
    ...palette,
    dark,
    scale,
    // '12px system-ui, ...' scaled to whole pixels (uPlot reads the size as an integer); weight e.g. '600'
    font: (px, weight = '') => `${weight ? `${weight} ` : ''}${Math.round(px * scale)}px ${FAMILY}`,
    // a length of the layout that holds text (margins, offsets), scaled and rounded
    px: (v) => Math.round(v * scale),
    // a series colour as drawn in this theme
    colour: (c) => (typeof c === 'string' && INK_LIKE[c.toLowerCase()] ? palette[INK_LIKE[c.toLowerCase()]] : c),
  };
}

// --- redraw on change ---------------------------------------------------------------------

const watched = new Set(); // WeakRef(plot)

// plot.themeChanged() will run after each change of theme or label size (until plot is gone).
export function watchTheme(plot) {
  watched.add(new WeakRef(plot));
}

export function themeChanged() {
  perRoot.clear();
  for (const ref of watched) {
    const plot = ref.deref();
    if (!plot) watched.delete(ref);
    else plot.themeChanged();
  }
}

// The page's settings {theme: auto | light | dark, fs: small | medium | large} -> data-theme
// and data-fs on el (<html>), which style.css reads; every watched plot redraws.
export function applyDisplay(el, { theme, fs }) {
  if (el.dataset.theme === theme && el.dataset.fs === fs) return;
  el.dataset.theme = theme;
  el.dataset.fs = fs;
  themeChanged();
}

// theme=auto follows the system: a change of prefers-color-scheme redraws the plots
if (typeof matchMedia === 'function') {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => themeChanged());
}
