/**
 * The reveal's sounds, synthesised with Web Audio (no files to fetch). Silent unless the user
 * turned sound on; the AudioContext is only created from that click, as browsers require.
 */
type Ctx = AudioContext;
let ctx: Ctx | null = null;

function audio(): Ctx | null {
  if (ctx) return ctx;
  const Ctor =
    typeof window === 'undefined'
      ? undefined
      : (window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext);
  if (!Ctor) return null;
  try {
    ctx = new Ctor();
  } catch {
    return null;
  }
  return ctx;
}

/** Call from the click that turns sound on: unlocks audio on browsers that start it suspended. */
export function unlockSound(): void {
  const a = audio();
  if (a && a.state === 'suspended') void a.resume().catch(() => undefined);
}

function tone(a: Ctx, freq: number, start: number, dur: number, opts: { type?: OscillatorType; gain?: number; to?: number } = {}) {
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = opts.type ?? 'sine';
  osc.frequency.setValueAtTime(freq, start);
  if (opts.to) osc.frequency.exponentialRampToValueAtTime(opts.to, start + dur);
  g.gain.setValueAtTime(0.0001, start);
  g.gain.exponentialRampToValueAtTime(opts.gain ?? 0.15, start + Math.min(0.03, dur / 4));
  g.gain.exponentialRampToValueAtTime(0.0001, start + dur);
  osc.connect(g).connect(a.destination);
  osc.start(start);
  osc.stop(start + dur + 0.05);
}

/** The rip: a burst of filtered noise sweeping down. */
export function playTear(): void {
  const a = audio();
  if (!a) return;
  const dur = 0.45;
  const buffer = a.createBuffer(1, Math.floor(a.sampleRate * dur), a.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const src = a.createBufferSource();
  src.buffer = buffer;
  const filter = a.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.setValueAtTime(3200, a.currentTime);
  filter.frequency.exponentialRampToValueAtTime(700, a.currentTime + dur);
  const g = a.createGain();
  g.gain.value = 0.35;
  src.connect(filter).connect(g).connect(a.destination);
  src.start();
}

/** The build-up: a tone rising over the suspense, higher and louder for rarer classes. */
export function playBuildUp(tier: number, ms: number): void {
  const a = audio();
  if (!a || tier < 0.45) return;
  tone(a, 110 + tier * 80, a.currentTime, ms / 1000, { type: 'sawtooth', gain: 0.04 + tier * 0.05, to: 330 + tier * 500 });
}

/** The turn: a short chime; rarer classes add notes to the chord. */
export function playReveal(tier: number): void {
  const a = audio();
  if (!a) return;
  const now = a.currentTime;
  const notes = [523.25, 659.25, 783.99, 1046.5, 1318.5];
  const count = 1 + Math.round(tier * (notes.length - 1));
  notes.slice(0, count).forEach((f, i) => tone(a, f, now + i * 0.07, 0.5 + tier * 0.8, { type: 'triangle', gain: 0.12 }));
}
