// Pure input/display helpers of the page: typed-field parsing (web/src/views/controls.js
// parseField) and token-chip text (web/src/widgets/chips.js). No DOM needed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseField } from '../../web/src/views/controls.js';
import { CHIP_COLORS, SPACE_MARK, chipColor, hexBytes, leadingSpaces, spokenLead, visibleText } from '../../web/src/widgets/chips.js';

describe('controls.parseField', () => {
  it('passes any integer through, out-of-range ones included, so the engine can name the limit', () => {
    assert.deepEqual(parseField('D', '0'), { ok: true, value: 0 });
    assert.deepEqual(parseField('D', ' -3 '), { ok: true, value: -3 });
    assert.deepEqual(parseField('V', '2000000000'), { ok: true, value: 2000000000 });
  });
  it('refuses text that is not an integer, quoting it', () => {
    assert.deepEqual(parseField('seed', 'abc'), { ok: false, message: 'seed: "abc" is not an integer' });
    assert.deepEqual(parseField('D', '1.5'), { ok: false, message: 'D: "1.5" is not an integer' });
    assert.deepEqual(parseField('V', '99999999999999999999'), { ok: false, message: 'V: 99999999999999999999 is too large for this page' });
  });
  it('an empty padding_idx means none', () => {
    assert.deepEqual(parseField('pad', ''), { ok: true, value: null });
    assert.deepEqual(parseField('pad', '0'), { ok: true, value: 0 });
  });
  it('learning rates accept decimals and exponents; NaN and Infinity go to the engine to be named', () => {
    assert.deepEqual(parseField('lr', '1e-3'), { ok: true, value: 0.001 });
    assert.ok(Number.isNaN(parseField('lr', 'NaN').value));
    assert.equal(parseField('lr', '-inf').value, -Infinity);
    assert.deepEqual(parseField('lr', 'fast'), { ok: false, message: 'lr: "fast" is not a number' });
  });
});

describe('chips helpers', () => {
  it('makes newlines, tabs and carriage returns visible', () => {
    assert.equal(visibleText('a\nb\tc\r'), 'a↵b⇥c␍');
    assert.equal(visibleText(' H'), ' H');
  });
  it('a token\'s leading spaces are counted apart from its text (drawn as a muted ·, said as "space +")', () => {
    assert.deepEqual(leadingSpaces(' the'), { count: 1, rest: 'the' });
    assert.deepEqual(leadingSpaces('   '), { count: 3, rest: '' });
    assert.deepEqual(leadingSpaces('the '), { count: 0, rest: 'the ' });
    assert.deepEqual(leadingSpaces('\tx'), { count: 0, rest: '\tx' }); // a tab is ⇥ already (visibleText)
    assert.equal(SPACE_MARK, '·');
    assert.equal(spokenLead(0), '');
    assert.equal(spokenLead(1), 'space + ');
    assert.equal(spokenLead(3), '3 spaces + ');
  });
  it('writes bytes as two-digit hex', () => {
    assert.equal(hexBytes(new Uint8Array([32, 72, 0, 255])), '20 48 00 ff');
  });
  it('the colour depends only on the id', () => {
    assert.equal(chipColor(367), chipColor(367));
    assert.ok(CHIP_COLORS.includes(chipColor(0)));
    assert.ok(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(chipColor)).size > 3);
  });
});
