/**
 * The page's sounds, made on the spot with the Web Audio API (no sound files to fetch): a wooden
 * click for a move, a heavier one for a capture, a two-note call for check, a short beep each
 * second of low time, a chord at the end of the game. A mute switch is kept in localStorage. The
 * audio context starts on the first click or key press (browsers allow sound only after one).
 */

export type SoundKind = 'move' | 'capture' | 'check' | 'low-time' | 'end';

const KEY = 'kishi-sound';
let ctx: AudioContext | undefined;

/** Whether sounds are on (the person's last choice; on by default). */
export const soundOn = (): boolean => localStorage.getItem(KEY) !== 'off';

export function setSoundOn(on: boolean): void {
  localStorage.setItem(KEY, on ? 'on' : 'off');
}

/** Creates the audio context inside a user gesture; later sounds reuse it. */
export function unlockSound(): void {
  if (ctx || typeof AudioContext === 'undefined') return;
  try {
    ctx = new AudioContext();
  } catch {
    ctx = undefined;
  }
}

/** A decaying tone at `freq` Hz from `at` seconds on, `len` seconds long. */
function tone(c: AudioContext, freq: number, at: number, len: number, gain: number, type: OscillatorType): void {
  const osc = c.createOscillator();
  const g = c.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, c.currentTime + at);
  g.gain.setValueAtTime(gain, c.currentTime + at);
  g.gain.exponentialRampToValueAtTime(0.0001, c.currentTime + at + len);
  osc.connect(g).connect(c.destination);
  osc.start(c.currentTime + at);
  osc.stop(c.currentTime + at + len + 0.02);
}

/** Plays one sound, unless muted or the browser gave no audio context yet. */
export function play(kind: SoundKind): void {
  if (!soundOn() || !ctx) return;
  const c = ctx;
  if (c.state === 'suspended') void c.resume();
  switch (kind) {
    case 'move':
      tone(c, 520, 0, 0.06, 0.25, 'triangle');
      tone(c, 180, 0, 0.05, 0.2, 'sine');
      return;
    case 'capture':
      tone(c, 330, 0, 0.09, 0.35, 'triangle');
      tone(c, 120, 0, 0.08, 0.3, 'sine');
      return;
    case 'check':
      tone(c, 660, 0, 0.1, 0.2, 'square');
      tone(c, 880, 0.1, 0.14, 0.2, 'square');
      return;
    case 'low-time':
      tone(c, 1000, 0, 0.05, 0.12, 'sine');
      return;
    case 'end':
      for (const [i, f] of [523, 659, 784].entries()) tone(c, f, i * 0.08, 0.5, 0.15, 'triangle');
      return;
  }
}
