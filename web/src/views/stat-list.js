// A <dl>-style list of (label, value) pairs as <div><dt>label</dt><dd>value</dd></div> rows,
// replacing the children of `el`. Values are set as text, never HTML.
//   renderStatList(el, [['tokens', '5,145'], ['distinct ids', '1,416']]);
export function renderStatList(el, entries) {
  const frag = document.createDocumentFragment();
  for (const [k, v] of entries) {
    const row = document.createElement('div');
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    row.append(dt, dd);
    frag.append(row);
  }
  el.replaceChildren(frag);
}
