// The positional-encoding controls, built from the engine's registry (M.positionalKinds(),
// which the worker sends with its ready message): the options of the `pos` select, the help
// line under it, and one field per parameter of every kind (shown only while that kind is
// chosen). Nothing here names a kind, so a kind added to the engine appears on the page as is.
//
//   const fields = buildPositionFields(form, kinds);   // -> the new .field elements
//   fields.forEach((f) => controls.bind(f));
//   showPositionHelp(form, kinds, 'rope');
import { positionParamKey } from '../state.js';

export function buildPositionFields(form, kinds) {
  const select = form.querySelector('#f-pos');
  select.replaceChildren(...kinds.map((k) => {
    const o = document.createElement('option');
    o.value = k.name;
    o.textContent = k.label;
    o.title = k.description;
    return o;
  }));
  const posField = select.closest('.field');
  const fields = [];
  let after = posField;
  for (const k of kinds) {
    for (const p of k.params) {
      const key = positionParamKey(k.name, p.name);
      const field = document.createElement('div');
      field.className = 'field';
      field.dataset.key = key;
      field.dataset.models = posField.dataset.models;
      field.dataset.pos = k.name;
      const label = document.createElement('label');
      label.htmlFor = `f-${key}`;
      label.append(`${k.label} ${p.name.replace(/_/g, ' ')} `);
      const hint = document.createElement('span');
      hint.className = 'hint';
      hint.textContent = `${p.help}; in [${p.min.toLocaleString("en")}, ${p.max.toLocaleString("en")}]`;
      label.append(hint);
      const input = document.createElement('input');
      input.id = `f-${key}`;
      input.name = key;
      input.type = 'text';
      input.inputMode = p.integer ? 'numeric' : 'decimal';
      const error = document.createElement('p');
      error.className = 'field-error';
      error.setAttribute('role', 'alert');
      field.append(label, input, error);
      after.after(field);
      after = field;
      fields.push(field);
    }
  }
  return fields;
}

// The chosen kind's one-line description under the select.
export function showPositionHelp(form, kinds, name) {
  const help = form.querySelector('#pos-help');
  const k = kinds.find((x) => x.name === name);
  if (help) help.textContent = k ? k.description : '';
}
