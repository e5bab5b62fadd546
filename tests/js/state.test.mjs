// URL hash state of the page (web/src/state.js): parse, serialize, fallbacks with messages.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, ECHO_CHARS, MAX_HASH_CHARS, MAX_IGNORED, MAX_LINK_STEP, describeIgnored, echo, ignoredLines, parseHash, parseKeyList, parseValue, paramSpec, serializeHash, setPositionalKinds } from '../../web/src/state.js';
import { loadEngine } from './load-engine.mjs';

// The page registers the engine's positional kinds before it reads a link (main.js start()).
setPositionalKinds((await loadEngine()).positionalKinds());

describe('state.parseHash', () => {
  it('an empty hash gives the defaults and no messages', () => {
    for (const h of ['', '#', undefined]) {
      const { state, ignored } = parseHash(h);
      assert.deepEqual(state, { ...DEFAULTS });
      assert.deepEqual(ignored, []);
    }
  });

  it('reads every kind of value', () => {
    const { state, ignored } = parseHash('#view=positions&seed=42&V=50257&D=768&T=128&scale=1&pad=0&sim=dot&cmap=viridis');
    assert.deepEqual(ignored, []);
    assert.equal(state.view, 'positions');
    assert.equal(state.seed, 42);
    assert.equal(state.V, 50257);
    assert.equal(state.D, 768);
    assert.equal(state.T, 128);
    assert.equal(state.scale, true);
    assert.equal(state.pad, 0);
    assert.equal(state.sim, 'dot');
    assert.equal(state.cmap, 'viridis');
  });

  it('a bad value falls back to the default and is reported with the reason', () => {
    const { state, ignored } = parseHash('#seed=abc&D=-3&V=6');
    assert.equal(state.seed, DEFAULTS.seed);
    assert.equal(state.D, DEFAULTS.D);
    assert.equal(state.V, 6);
    assert.deepEqual(ignored, [
      { key: 'seed', value: 'abc', reason: 'seed must be an integer in [0, 9007199254740991]' },
      { key: 'D', value: '-3', reason: 'D must be an integer in [1, 65536]' },
    ]);
  });

  it('refuses numbers written as floats, exponents, hex or empty strings', () => {
    for (const v of ['1.5', '1e3', '0x10', '', ' ', 'Infinity', 'NaN', '99999999999999999']) {
      const { state, ignored } = parseHash(`#V=${encodeURIComponent(v)}`);
      assert.equal(state.V, DEFAULTS.V, `V=${v}`);
      assert.equal(ignored.length, 1, `V=${v}`);
    }
  });

  it('D=0 is out of the link range (the typed field sends it to the engine instead)', () => {
    const { state, ignored } = parseHash('#D=0');
    assert.equal(state.D, DEFAULTS.D);
    assert.equal(ignored[0].key, 'D');
  });

  it('unknown keys, bad enums and bad booleans are reported', () => {
    const { state, ignored } = parseHash('#zzz=1&view=nope&scale=yes');
    assert.equal(state.view, 'table');
    assert.equal(state.scale, false);
    assert.deepEqual(ignored.map((i) => i.key), ['zzz', 'view', 'scale']);
    assert.equal(ignored[0].reason, "unknown setting 'zzz'");
    assert.match(ignored[1].reason, /^view must be one of table, text, bpe, windows, positions, train/);
    assert.equal(ignored[2].reason, 'scale must be 0 or 1');
  });

  it('padding_idx accepts empty or "none" as no padding and negative indices like torch', () => {
    assert.equal(parseHash('#pad=').state.pad, null);
    assert.equal(parseHash('#pad=none').state.pad, null);
    assert.equal(parseHash('#pad=-1').state.pad, -1);
  });

  it('a malformed percent escape does not throw', () => {
    const { state, ignored } = parseHash('#seed=%E0%A4%A');
    assert.equal(state.seed, DEFAULTS.seed);
    assert.equal(ignored[0].value, '%E0%A4%A');
  });

  it('the last occurrence of a key wins', () => {
    assert.equal(parseHash('#seed=1&seed=2').state.seed, 2);
  });
});

describe('state.serializeHash', () => {
  it('the defaults serialize to an empty string', () => {
    assert.equal(serializeHash({ ...DEFAULTS }), '');
  });

  it('writes only changed keys, in a fixed order, and round-trips', () => {
    const s = { ...DEFAULTS, D: 768, seed: 7, scale: true, view: 'positions', pad: 0 };
    const h = serializeHash(s);
    assert.equal(h, 'view=positions&seed=7&D=768&scale=1&pad=0');
    assert.deepEqual(parseHash(`#${h}`), { state: s, ignored: [] });
  });

  it('round-trips every default-differing value of every parameter', () => {
    const s = { ...DEFAULTS, view: 'train', seed: 9007199254740991, V: 2147483647, D: 65536, T: 1, scale: true, pad: -5,
      tok: 0, pd: 2, sim: 'dot', cmap: 'cividis', theme: 'dark', fs: 'large', corpus: 'custom', enc: 'char', lower: true, at: 99, L: 256, stride: 1, B: 32, bpeV: 1000,
      model: 'cbow', pos: 'rope', tD: 8, ctx: 64, tB: 2, opt: 'sgd', lr: 0.5, alpha: 1e-7, win: 2, minc: 1, ep: 9, step: 1200, pick: 7, logy: true, cmp: 50, embed: true, txt: '80jNycnXUSjPL8pJAQA' };
    assert.deepEqual(parseHash(serializeHash(s)).state, s);
  });
});

describe('state: display settings (theme, label size)', () => {
  it('theme is auto, light or dark; fs is small, medium or large; the defaults are not written', () => {
    assert.deepEqual([DEFAULTS.theme, DEFAULTS.fs], ['auto', 'medium']);
    const { state, ignored } = parseHash('#theme=dark&fs=large');
    assert.deepEqual([state.theme, state.fs, ignored], ['dark', 'large', []]);
    assert.equal(serializeHash({ ...DEFAULTS, theme: 'light', fs: 'small' }), 'theme=light&fs=small');
    assert.equal(serializeHash({ ...DEFAULTS, theme: 'auto', fs: 'medium' }), '');
  });
  it('other values fall back to auto / medium with a message', () => {
    const { state, ignored } = parseHash('#theme=Dark&fs=16px');
    assert.deepEqual([state.theme, state.fs], ['auto', 'medium']);
    assert.deepEqual(ignored.map(describeIgnored), [
      'ignored theme=Dark (theme must be one of auto, light, dark); using the default auto',
      'ignored fs=16px (fs must be one of small, medium, large); using the default medium',
    ]);
  });
});

describe('state: the text in the link', () => {
  it('accepts base64url and refuses anything else, or too long', () => {
    assert.equal(parseHash('#txt=80jNycnXUSjPL8pJAQA').state.txt, '80jNycnXUSjPL8pJAQA');
    const bad = parseHash('#txt=a+b').ignored[0];
    assert.equal(describeIgnored(bad), 'ignored txt=a b (txt must be base64url text of at most 8000 characters); using the built-in corpus');
    assert.equal(parseHash(`#txt=${'A'.repeat(8001)}`).state.txt, '');
  });
});

describe('state: the training step and the picked token in the link', () => {
  it('step=N and pick=N read as integers; no pick is none', () => {
    assert.deepEqual([DEFAULTS.step, DEFAULTS.pick], [0, null]);
    const { state, ignored } = parseHash('#step=250&pick=12');
    assert.deepEqual([state.step, state.pick, ignored], [250, 12, []]);
    assert.equal(serializeHash({ ...DEFAULTS, step: 250, pick: 0 }), 'pick=0&step=250');
  });
  it('bad values fall back to step 0 and no pick, with a message naming the key and the range', () => {
    const { state, ignored } = parseHash('#step=-3&pick=1.5&step2=4');
    assert.deepEqual([state.step, state.pick], [0, null]);
    assert.deepEqual(ignored.map(describeIgnored), [
      'ignored step=-3 (step must be an integer in [0, 100000], a link replays at most 100,000 steps); using the default 0',
      'ignored pick=1.5 (pick must be an integer in [0, 2147483647]); using the default none',
      "ignored step2=4 (unknown setting 'step2')",
    ]);
    assert.equal(parseHash('#step=1000000001').state.step, 0);
  });
});

describe('state.describeIgnored', () => {
  it('names the key, the value, the reason and the default used instead', () => {
    const [item] = parseHash('#seed=abc').ignored;
    assert.equal(describeIgnored(item), 'ignored seed=abc (seed must be an integer in [0, 9007199254740991]); using the default 123');
  });

  it('shortens very long values', () => {
    const [item] = parseHash(`#seed=${'x'.repeat(100)}`).ignored;
    assert.ok(describeIgnored(item).startsWith(`ignored seed=${'x'.repeat(40)}… (`));
  });
});

describe('state.parseValue', () => {
  it('reads learning rates in decimal or exponent form and refuses 0, NaN and Infinity', () => {
    const p = paramSpec('lr');
    assert.deepEqual(parseValue(p, '1e-3'), { ok: true, value: 0.001 });
    assert.deepEqual(parseValue(p, '.5'), { ok: true, value: 0.5 });
    for (const bad of ['0', 'NaN', 'Infinity', '-1', '1e400', 'abc', '']) {
      assert.deepEqual(parseValue(p, bad), { ok: false, reason: 'lr must be a number in (0, 1000000]' }, bad);
    }
  });

  it('accepts the bounds of a range and refuses one past them', () => {
    const p = paramSpec('D');
    assert.deepEqual(parseValue(p, '1'), { ok: true, value: 1 });
    assert.deepEqual(parseValue(p, '65536'), { ok: true, value: 65536 });
    assert.equal(parseValue(p, '65537').ok, false);
  });
  it('bpeV accepts 256 (bytes only, no merges) like the engine, and refuses 255 with the range', async () => {
    const p = paramSpec('bpeV');
    assert.deepEqual(parseValue(p, '256'), { ok: true, value: 256 });
    assert.deepEqual(parseValue(p, '255'), { ok: false, reason: 'bpeV must be an integer in [256, 1048576]' });
    const M = await loadEngine();
    const t = new M.BpeTrainer('hello hello world', p.min);
    assert.deepEqual(t.step(4), []);
    t.delete();
    assert.throws(() => new M.BpeTrainer('hello', p.min - 1), /vocab_size must be >= 256/);
  });
});

describe('state: cmpKinds (a comma list of positional kinds)', () => {
  it('keeps the registry\'s kinds in the registry\'s order, once, and lists each other item as ignored', () => {
    const { state, ignored } = parseHash('#cmpKinds=rope-yarn,%20rope,yarn,rope');
    assert.equal(state.cmpKinds, 'rope,rope-yarn');
    assert.deepEqual(ignored.map((i) => i.value), ['yarn']);
    assert.match(describeIgnored(ignored[0]), /^ignored cmpKinds=yarn \('yarn' is not a positional kind \(cmpKinds takes a comma list of none, sinusoidal, learned, rope, /);
    assert.equal(serializeHash(state), 'cmpKinds=rope,rope-yarn');
    assert.equal(serializeHash({ ...DEFAULTS, cmpKinds: '' }), '');
    assert.deepEqual(parseValue(paramSpec('cmpKinds'), 'alibi,none'), { ok: true, value: 'none,alibi' });
    assert.equal(parseValue(paramSpec('cmpKinds'), 'alibi,x').ok, false);
  });
});

describe('state: controls (a comma list of setting keys)', () => {
  it('keeps the known setting keys in order, once, and lists each other item as ignored on its own', () => {
    const { state, ignored } = parseHash('#embed=1&card=sinusoidal&controls=T,%20seed,bogus,T,view,rope.base');
    assert.equal(state.controls, 'T,seed,rope.base');
    assert.deepEqual(ignored.map((i) => i.value), ['bogus', 'view']);
    assert.equal(describeIgnored(ignored[0]), "ignored controls=bogus ('bogus' is not a setting (controls takes a comma list of setting keys, e.g. T,seed))");
    assert.deepEqual(parseKeyList('V,,D'), { keys: ['V', 'D'], bad: [] });
  });

  it('round-trips with readable commas; none is the default and leaves the link', () => {
    const { state } = parseHash('#controls=V,D');
    assert.equal(serializeHash(state), 'controls=V,D');
    assert.equal(serializeHash({ ...DEFAULTS, controls: '' }), '');
    assert.deepEqual(parseValue(paramSpec('controls'), 'V,x'), { ok: false, reason: "'x' is not a setting (controls takes a comma list of setting keys, e.g. T,seed)" });
  });
});

describe('view-keys: the settings each view reads (controls of the iframe form and the widget)', async () => {
  const { readKeys, viewControls } = await import('../../web/src/views/view-keys.js');
  it('a view offers its engine keys and its display keys; others are listed with what it reads', () => {
    assert.deepEqual(readKeys('positions'), ['seed', 'T', 'pd', 'sim', 'cmap']);
    assert.deepEqual(readKeys('windows'), ['corpus', 'enc', 'lower', 'bpeV', 'L', 'stride', 'B']);
    assert.ok(readKeys('train').includes('logy') && readKeys('train').includes('lr'));
    const r = viewControls('positions', 'T,V,cmap');
    assert.deepEqual(r.keys, ['T', 'cmap']);
    assert.deepEqual(r.ignored, [{ key: 'controls', value: 'V', reason: 'the positions view does not read V (it reads seed, T, pd, sim, cmap)' }]);
    assert.deepEqual(viewControls('text', ''), { keys: [], ignored: [] });
  });
});

describe('state: training has its own text (tCorpus, tEnc, tLower) and reads older links', () => {
  it('defaults: the text views read GPT-2 ids of The Verdict, training characters of Tiny Shakespeare', () => {
    assert.deepEqual([DEFAULTS.corpus, DEFAULTS.enc, DEFAULTS.lower], ['the-verdict', 'gpt2', false]);
    assert.deepEqual([DEFAULTS.tCorpus, DEFAULTS.tEnc, DEFAULTS.tLower], ['tinyshakespeare', 'char', false]);
    const { state, ignored } = parseHash('#view=train&tD=8');
    assert.deepEqual([state.tCorpus, state.tEnc], ['tinyshakespeare', 'char']);
    assert.deepEqual(ignored, []);
  });

  it('an older training link (view=train or a step, text keys, no training text keys) trains on the text it names, and says so', () => {
    const { state, ignored } = parseHash('#view=train&enc=char&tD=8');
    assert.deepEqual([state.tCorpus, state.tEnc, state.tLower], ['the-verdict', 'char', false]); // corpus's default, as the link meant
    assert.deepEqual([state.corpus, state.enc], ['the-verdict', 'char'], 'the text views keep the link\'s text keys');
    assert.equal(ignored.length, 1);
    assert.equal(ignored[0].migrated, true);
    assert.equal(describeIgnored(ignored[0]), 'enc=char (an older link): training has its own text settings now; this older link trains on the text it names: tCorpus=the-verdict, tEnc=char, tLower=0');
    const stepped = parseHash('#view=table&corpus=tinyshakespeare&lower=1&step=300');
    assert.deepEqual([stepped.state.tCorpus, stepped.state.tEnc, stepped.state.tLower], ['tinyshakespeare', 'gpt2', true]);
    assert.match(describeIgnored(stepped.ignored[0]), /^corpus=tinyshakespeare&lower=1 \(an older link\)/);
  });

  it('no migration for a text view link, nor when the link names a training text key', () => {
    for (const h of ['#view=text&enc=char', '#view=train&enc=char&tEnc=gpt2', '#view=train&corpus=tinyshakespeare&tLower=0']) {
      const { state, ignored } = parseHash(h);
      assert.deepEqual(ignored, [], h);
      assert.equal(state.tCorpus, 'tinyshakespeare', h);
    }
  });

  it('a new link with text keys and default training text writes tCorpus, so it is not read as an older one', () => {
    const s = { ...DEFAULTS, view: 'train', enc: 'char' };
    assert.equal(serializeHash(s), 'view=train&enc=char&tCorpus=tinyshakespeare');
    const back = parseHash(serializeHash(s));
    assert.deepEqual(back.ignored, []);
    assert.deepEqual([back.state.tCorpus, back.state.tEnc, back.state.enc], ['tinyshakespeare', 'char', 'char']);
    // the older link round-trips to the same training text, now named
    const old = parseHash('#view=train&enc=char').state;
    assert.equal(serializeHash(old), 'view=train&enc=char&tCorpus=the-verdict');
    assert.deepEqual(parseHash(serializeHash(old)).ignored, []);
    assert.equal(serializeHash({ ...DEFAULTS, view: 'text', enc: 'char' }), 'view=text&enc=char', 'only training links need it');
    assert.deepEqual(parseHash('#tEnc=word').ignored, []);
    assert.deepEqual(parseHash('#tEnc=klingon').ignored[0].reason, 'tEnc must be one of gpt2, whitespace, word, char, bpe');
  });
});

describe('state: what the ignored-settings notice echoes', () => {
  it('an unknown key with U+202E (RIGHT-TO-LEFT OVERRIDE) is shown as \\u202E, never as itself', () => {
    const { ignored } = parseHash('#view=table&ab%E2%80%AEcd=1%E2%81%A6x%00');
    assert.equal(ignored.length, 1);
    const line = describeIgnored(ignored[0]);
    assert.equal(line, "ignored ab\\u202Ecd=1\\u2066x\\u0000 (unknown setting 'ab\\u202Ecd')");
    assert.ok(!/[\u202A-\u202E\u2066-\u2069\u0000]/.test(line), line);
  });

  it('a long unknown key is cut to ECHO_CHARS in the key and in the reason', () => {
    const key = 'k'.repeat(5000);
    const { ignored } = parseHash(`#${key}=v`);
    const line = describeIgnored(ignored[0]);
    assert.equal(line, `ignored ${'k'.repeat(ECHO_CHARS)}…=v (unknown setting '${'k'.repeat(ECHO_CHARS)}…')`);
    assert.equal(echo('😀'.repeat(50)).length, 2 * ECHO_CHARS + 1, 'cut by code points, not inside a surrogate pair');
  });

  it(`a hash over MAX_HASH_CHARS: only its first ${MAX_HASH_CHARS} characters are read, the rest refused with one note`, () => {
    const many = Array.from({ length: 200000 }, (_, i) => `x${i}=1`).join('&'); // ~2 MB
    const { state, ignored } = parseHash(`#D=8&${many}&seed=99`);
    assert.equal(state.D, 8);
    assert.equal(state.seed, DEFAULTS.seed, 'a setting past the limit is not read');
    const cut = ignored.filter((i) => i.cut);
    assert.equal(cut.length, 1);
    assert.equal(describeIgnored(cut[0]), `refused: the link's settings are ${(many.length + 12).toLocaleString('en')} characters; only the first 16,384 are read; the rest is ignored`);
    assert.ok(ignored.length < MAX_HASH_CHARS / 4, `${ignored.length} items`);
    const lines = ignoredLines(ignored, (t) => `Link setting ${t}.`);
    assert.equal(lines.length, MAX_IGNORED + 2);
    assert.match(lines[MAX_IGNORED], /^…and [0-9,]+ more ignored settings \(only the first 20 are listed\)\.$/);
    assert.match(lines[MAX_IGNORED + 1], /^Link setting refused: /);
  });

  it('a bad key in controls= is echoed cut and escaped', () => {
    const { ignored } = parseHash(`#controls=T,${'\u202E'}${'z'.repeat(60)}`);
    assert.equal(ignored.length, 1);
    assert.ok(!describeIgnored(ignored[0]).includes('\u202E'));
    assert.ok(describeIgnored(ignored[0]).includes(`'\\u202E${'z'.repeat(ECHO_CHARS - 1)}…' is not a setting`));
  });
});

describe('state: the link step is bounded', () => {
  it(`step=1000000000 is refused, naming the value and the limit MAX_LINK_STEP (${MAX_LINK_STEP}); step=${MAX_LINK_STEP} is read`, () => {
    const { state, ignored } = parseHash('#view=train&step=1000000000');
    assert.equal(state.step, 0);
    assert.deepEqual(ignored.map(describeIgnored), ['ignored step=1000000000 (step must be an integer in [0, 100000], a link replays at most 100,000 steps); using the default 0']);
    assert.equal(parseHash(`#step=${MAX_LINK_STEP}`).state.step, MAX_LINK_STEP);
  });
});
