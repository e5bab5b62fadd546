// The host page's side of an embedded card (tests/browser/article-iframe.html): the listener of the
// Embed snippet (views/embed.js HOST_LISTENER), and the iframe's address from this page's own hash
// (the test says which card).
addEventListener('message', (e) => {
  if (e.data && e.data.embedlab === 'height') {
    for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.style.height = `${e.data.height}px`;
  }
});
document.getElementById('embedded').src = `index.html${location.hash || '#view=positions&T=64&pd=32&embed=1&card=sinusoidal'}`;
