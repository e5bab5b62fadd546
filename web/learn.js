// learn.html's own script (copied as written by scripts/build-web.mjs): the page's theme and the
// embedded card's height. It does not compute or draw anything; the widgets (embedlab-element.js)
// and the embedded page do.
//   #theme=dark | #theme=light (also with a section: #theme=dark&why-positions): sets the
//   article's theme, every <embedlab-view>'s theme attribute and the embedded page's theme key;
//   without it the article follows prefers-color-scheme (style.css, learn.css).
//   Each {embedlab: 'height', height} message from an iframe of this page (the page in embed mode,
//   views/embed.js) sets that iframe's height: the one-line listener of the page's Embed snippet.
const parts = location.hash.replace(/^#/, '').split('&');
const themePart = parts.find((p) => /^theme=(dark|light)$/.test(p));
const theme = themePart ? themePart.slice('theme='.length) : null;
if (theme) {
  document.documentElement.dataset.theme = theme;
  for (const el of document.querySelectorAll('embedlab-view')) el.setAttribute('theme', theme);
  for (const f of document.querySelectorAll('iframe.w-iframe')) f.src = `${f.getAttribute('src')}&theme=${theme}`;
  // a section named beside the theme: scroll to it, as a plain #id would
  const target = parts.find((p) => p && !p.includes('=') && document.getElementById(p));
  if (target) document.getElementById(target).scrollIntoView();
}

addEventListener('message', (e) => {
  if (!e.data || e.data.embedlab !== 'height' || !Number.isFinite(e.data.height)) return;
  for (const f of document.querySelectorAll('iframe')) {
    if (f.contentWindow === e.source) f.style.height = `${Math.ceil(e.data.height)}px`;
  }
});
