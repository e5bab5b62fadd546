// The training chart's verdict (web/src/memorisation.js): learning or memorising, by the stated
// rule (held-out >= chance at the last 2 evaluations, or a gap over 1 nat that grows over the
// last 3), never before step 200; and the compare card's "too small to learn from".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GAP_NATS, MIN_STEPS, memorisationVerdict, tooSmallToLearn, verdictText } from '../../web/src/memorisation.js';

// steps 1..n with loss f(step)
const curve = (n, f) => Array.from({ length: n }, (_, i) => [i + 1, f(i + 1)]);
// held-out evaluations at 0, 50, ... up to n with loss g(step)
const evals = (n, g) => Array.from({ length: Math.floor(n / 50) + 1 }, (_, i) => [i * 50, g(i * 50)]);
const CHANCE = Math.log(1416);

describe('memorisationVerdict', () => {
  it('says nothing before step 200, however bad the held-out loss', () => {
    const v = memorisationVerdict(curve(150, () => 0.5), evals(150, () => 12), CHANCE);
    assert.equal(v.state, 'early');
    assert.equal(v.step, 150);
    assert.equal(v.heldOut, 12);
    assert.equal(v.train, 0.5, 'the mean training loss since the previous evaluation');
    assert.equal(memorisationVerdict([], [], CHANCE).state, 'early');
    assert.equal(MIN_STEPS, 200);
  });

  it('memorising when the last two held-out losses are at or above chance (The Verdict on GPT-2 ids)', () => {
    // training loss falling to 0.1, held-out rising from chance to 12
    const v = memorisationVerdict(curve(400, (s) => Math.max(0.1, 7 - s / 40)), evals(400, (s) => 7.2 + s / 80), CHANCE);
    assert.equal(v.state, 'memorising');
    assert.equal(v.reason, 'above-chance');
    assert.equal(v.heldOut, 7.2 + 5);
    assert.match(verdictText(v, 1416), /^The model is memorising this text: held-out loss 12\.20 is above chance ln 1,416 = 7\.26 while training loss is 0\.10\. .*Tiny Shakespeare/);
  });

  it('held-out at chance with training loss just as high is not learning, not memorising (a tiny learning rate)', () => {
    const v = memorisationVerdict(curve(400, () => CHANCE + 0.2), evals(400, () => CHANCE + 0.25), CHANCE);
    assert.equal(v.state, 'not-learning');
    assert.match(verdictText(v, 1416), /^Not learning yet: held-out loss 7\.51 is at or above chance ln 1,416 = 7\.26 while training loss is 7\.46\. Try more steps or a higher learning rate\.$/);
  });

  it('one held-out loss above chance is not enough', () => {
    const held = evals(400, (s) => (s === 400 ? CHANCE + 0.1 : 5));
    const v = memorisationVerdict(curve(400, () => 4.8), held, CHANCE);
    assert.equal(v.state, 'watching');
    assert.match(verdictText(v, 1416), /^Held-out loss 7\.36 rose to or above chance ln 1,416 = 7\.26 at step 400 while training loss is 4\.80: if it stays there/);
  });

  it('memorising when the gap passes 1 nat and grows over the last three evaluations', () => {
    const train = curve(600, (s) => 4 - s / 200); // 1.0 at step 600
    const held = evals(600, (s) => 4 - s / 400); // gap 0.25 at 100 ... 1.5 at 600
    const v = memorisationVerdict(train, held, Math.log(65) + 1);
    assert.equal(v.state, 'memorising');
    assert.equal(v.reason, 'gap');
    assert.ok(v.gap > GAP_NATS);
    assert.match(verdictText(v, 65), /nats above training loss .* the gap has grown over the last 3 evaluations/);
  });

  it('a wide gap that is closing is not memorising', () => {
    const train = curve(600, () => 2);
    const held = evals(600, (s) => 4.6 - s / 1000); // gap 2.6 -> 2.0, shrinking
    assert.equal(memorisationVerdict(train, held, 5).state, 'learning');
  });

  it('learning: held-out well below chance and close to training (characters of Tiny Shakespeare)', () => {
    const v = memorisationVerdict(curve(1000, (s) => 2.2 + 2 / s), evals(1000, (s) => 2.3 + 2 / (s + 1)), Math.log(65));
    assert.equal(v.state, 'learning');
    assert.match(verdictText(v, 65), /^Learning: held-out loss 2\.30 on text it never trained on is 1\.87 nats below chance ln 65 = 4\.17, 0\.\d\d above training loss 2\.2\d\.$/);
  });
});

describe('tooSmallToLearn (the compare card)', () => {
  it('when even the best held-out loss is at or above chance', () => {
    assert.equal(tooSmallToLearn([12.3, 12.8, 12.5], CHANCE), true);
    assert.equal(tooSmallToLearn([12.3, 7.0], CHANCE), false);
    assert.equal(tooSmallToLearn([null, 8], CHANCE), true);
    assert.equal(tooSmallToLearn([], CHANCE), false);
  });
});
