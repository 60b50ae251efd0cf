// Sound cues: nothing is made before a user gesture unlocks audio, every cue is its own notes, and the volume sits
// on one master gain. A fake AudioContext records what the module builds and schedules.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createSounds, CUES } from '../../web/js/core/sounds.js';

/** An AudioParam stand-in that records every scheduling call. */
class FakeParam {
  constructor(value = 0) {
    this.value = value;
    this.calls = [];
  }

  setValueAtTime(value, time) { this.calls.push(['set', value, time]); this.value = value; }

  linearRampToValueAtTime(value, time) { this.calls.push(['linear', value, time]); }

  exponentialRampToValueAtTime(value, time) {
    assert.ok(value > 0, 'an exponential ramp cannot reach 0');
    this.calls.push(['exponential', value, time]);
  }
}

class FakeNode {
  constructor(context, kind) {
    this.context = context;
    this.kind = kind;
    this.outputs = [];
  }

  connect(node) { this.outputs.push(node); return node; }
}

/** A fresh fake AudioContext class; `FakeContext.instances` lists the contexts made. */
function fakeAudio({ state = 'running' } = {}) {
  class FakeContext {
    static instances = [];

    constructor() {
      FakeContext.instances.push(this);
      this.state = state;
      this.currentTime = 10;
      this.destination = new FakeNode(this, 'destination');
      this.oscillators = [];
      this.gains = [];
      this.resumed = 0;
    }

    resume() { this.resumed += 1; this.state = 'running'; return Promise.resolve(); }

    createGain() {
      const node = new FakeNode(this, 'gain');
      node.gain = new FakeParam(1);
      this.gains.push(node);
      return node;
    }

    createOscillator() {
      const node = new FakeNode(this, 'oscillator');
      node.frequency = new FakeParam(440);
      node.type = 'sine';
      node.start = (time) => { node.startedAt = time; };
      node.stop = (time) => { node.stoppedAt = time; };
      this.oscillators.push(node);
      return node;
    }
  }
  return FakeContext;
}

/** A clock that moves a second per read, so repeats are never dropped unless a test says so. */
function steppingClock() {
  let time = 0;
  return () => { time += 1000; return time; };
}

describe('sounds', () => {
  test('no AudioContext before unlock, and play does nothing then', () => {
    const Audio = fakeAudio();
    const sounds = createSounds({ AudioContextClass: Audio, now: steppingClock() });
    assert.equal(sounds.play('win'), false);
    assert.equal(Audio.instances.length, 0);
    assert.equal(sounds.unlocked, false);
    assert.equal(sounds.unlock(), true);
    assert.equal(Audio.instances.length, 1);
    assert.equal(sounds.play('win'), true);
  });

  test('one context is reused; a suspended one is resumed on each unlock', () => {
    const Audio = fakeAudio({ state: 'suspended' });
    const sounds = createSounds({ AudioContextClass: Audio, now: steppingClock() });
    sounds.unlock();
    const [context] = Audio.instances;
    assert.equal(context.resumed, 1);
    context.state = 'suspended';
    sounds.unlock();
    sounds.play('hit');
    sounds.play('miss');
    assert.equal(Audio.instances.length, 1);
    assert.equal(context.resumed, 2);
  });

  test('each cue schedules its own notes, each with an envelope into the master gain', () => {
    const Audio = fakeAudio();
    const sounds = createSounds({ AudioContextClass: Audio, now: steppingClock() });
    sounds.unlock();
    const [context] = Audio.instances;
    const [master] = context.gains;
    assert.deepEqual(master.outputs, [context.destination]);
    const shapes = new Set();
    for (const cue of CUES) {
      const before = context.oscillators.length;
      assert.equal(sounds.play(cue), true, cue);
      const made = context.oscillators.slice(before);
      assert.ok(made.length >= 1, `${cue} plays notes`);
      for (const oscillator of made) {
        assert.ok(oscillator.startedAt >= context.currentTime, `${cue} starts now or later`);
        assert.ok(oscillator.stoppedAt > oscillator.startedAt, `${cue} stops`);
        assert.ok(oscillator.stoppedAt - context.currentTime < 1.5, `${cue} is short`);
        const [gain] = oscillator.outputs;
        assert.equal(gain.kind, 'gain');
        assert.deepEqual(gain.outputs, [master]);
        const kinds = gain.gain.calls.map(([kind]) => kind);
        assert.deepEqual(kinds, ['set', 'linear', 'exponential'], `${cue} has an attack and a decay`);
      }
      const shape = made.map((o) => `${o.type}:${o.frequency.calls.map((c) => c.slice(0, 2).join('/')).join(',')}`
        + `@${(o.startedAt - context.currentTime).toFixed(2)}`).join(' ');
      shapes.add(shape);
    }
    assert.equal(shapes.size, CUES.length, 'no two cues sound the same');
  });

  test('disabled: nothing is played until enabled again', () => {
    const Audio = fakeAudio();
    const sounds = createSounds({ AudioContextClass: Audio, now: steppingClock(), enabled: false });
    assert.equal(sounds.enabled, false);
    sounds.unlock();
    const [context] = Audio.instances;
    assert.equal(sounds.play('yourTurn'), false);
    assert.equal(context.oscillators.length, 0);
    sounds.setEnabled(true);
    assert.equal(sounds.play('yourTurn'), true);
    sounds.setEnabled(false);
    const count = context.oscillators.length;
    sounds.play('yourTurn');
    assert.equal(context.oscillators.length, count);
  });

  test('volume sets the master gain, clamped to 0..1; volume 0 plays nothing', () => {
    const Audio = fakeAudio();
    const sounds = createSounds({ AudioContextClass: Audio, now: steppingClock(), volume: 0.3 });
    assert.equal(sounds.volume, 0.3);
    sounds.setVolume(0.8);
    sounds.unlock();
    const [context] = Audio.instances;
    const [master] = context.gains;
    assert.equal(master.gain.value, 0.8, 'a volume chosen before unlock applies');
    sounds.setVolume(0.25);
    assert.deepEqual(master.gain.calls.at(-1), ['set', 0.25, context.currentTime]);
    sounds.setVolume(7);
    assert.equal(sounds.volume, 1);
    sounds.setVolume(-1);
    assert.equal(sounds.volume, 0);
    assert.equal(sounds.play('win'), false);
    sounds.setVolume('nonsense');
    assert.equal(sounds.volume, 0);
  });

  test('the same cue twice within a moment plays once; unknown cues are ignored', () => {
    const Audio = fakeAudio();
    let time = 0;
    const sounds = createSounds({ AudioContextClass: Audio, now: () => time });
    sounds.unlock();
    assert.equal(sounds.play('hit'), true);
    time += 10;
    assert.equal(sounds.play('hit'), false);
    assert.equal(sounds.play('miss'), true, 'another cue is not held back');
    time += 100;
    assert.equal(sounds.play('hit'), true);
    assert.equal(sounds.play('fanfare'), false);
  });

  test('without Web Audio, or when the context cannot be made, everything is silent', () => {
    const none = createSounds({ AudioContextClass: null });
    assert.equal(none.unlock(), false);
    assert.equal(none.play('win'), false);
    class Broken { constructor() { throw new Error('NotAllowedError'); } }
    const broken = createSounds({ AudioContextClass: Broken });
    assert.equal(broken.unlock(), false);
    assert.equal(broken.play('win'), false);
  });
});
