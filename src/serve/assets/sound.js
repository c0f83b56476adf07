// The board's sounds, made with WebAudio (no sound files): a move, a capture, a check, low time
// and the end of a game. They can be switched off; the choice is kept in the browser.
"use strict";
const ChariotSound = (() => {
  const KEY = "chariot-sound";
  let context = null;
  let enabled = localStorage.getItem(KEY) !== "off";
  const played = [];  // what was played, for the browser test: ["move", "check", …]

  // Each sound as tones: [frequency in Hz, start in s, length in s, wave, loudness].
  const SOUNDS = {
    move: [[520, 0, 0.07, "triangle", 0.5]],
    capture: [[300, 0, 0.09, "square", 0.25], [180, 0.05, 0.12, "triangle", 0.5]],
    check: [[880, 0, 0.1, "sawtooth", 0.2], [660, 0.12, 0.14, "sawtooth", 0.2]],
    low: [[1000, 0, 0.06, "sine", 0.35], [1000, 0.12, 0.06, "sine", 0.35]],
    end: [[523, 0, 0.18, "sine", 0.4], [659, 0.15, 0.18, "sine", 0.4], [784, 0.3, 0.35, "sine", 0.4]],
  };

  function play(kind) {
    played.push(kind);
    if (!enabled || !SOUNDS[kind] || typeof AudioContext === "undefined") return;
    try {
      context = context || new AudioContext();
      const now = context.currentTime;
      for (const [frequency, start, length, wave, loudness] of SOUNDS[kind]) {
        const osc = context.createOscillator(), gain = context.createGain();
        osc.type = wave;
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, now + start);
        gain.gain.exponentialRampToValueAtTime(loudness * 0.4, now + start + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
        osc.connect(gain).connect(context.destination);
        osc.start(now + start);
        osc.stop(now + start + length + 0.02);
      }
    } catch (e) { /* a browser that refuses sound plays none */ }
  }

  function setEnabled(on) {
    enabled = on;
    localStorage.setItem(KEY, on ? "on" : "off");
  }

  return { play, setEnabled, get enabled() { return enabled; }, played };
})();
