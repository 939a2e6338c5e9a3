import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BOOT_SCRIPT } from './boot-script.ts';

// The boot script runs in a browser before any of the app's code; these tests run it against a
// small stand-in for the document and the browser's timing APIs, to pin down when it starts the code.

type Listener = (e?: unknown) => void;
type Entry = { name: string; entryType: string; element?: FakeImg };

class FakeImg {
  listeners: Record<string, Listener[]> = {};
  constructor(
    public rect = { top: 10, bottom: 200, left: 0, right: 180 },
    public complete = false,
    public naturalWidth = 0,
  ) {}
  getBoundingClientRect() {
    return this.rect;
  }
  addEventListener(type: string, fn: Listener) {
    (this.listeners[type] ??= []).push(fn);
  }
  fire(type: string) {
    for (const fn of this.listeners[type] ?? []) fn();
  }
}

function browser(opts: { readyState?: string; hidden?: boolean; timing?: boolean; images?: FakeImg[] } = {}) {
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const frames: Array<() => void> = [];
  const docListeners: Record<string, Listener[]> = {};
  const appended: Array<{ tag: string; rel?: string; href?: string; src?: string; type?: string }> = [];
  const observers: Array<{ cb: (l: { getEntries(): Entry[] }) => void; types: string[] }> = [];
  const buffered: Entry[] = [];
  const script = {
    getAttribute: (name: string) => ({ 'data-src': '/assets/index.js', 'data-preload': '/assets/a.js /assets/b.js' })[name] ?? null,
  };
  const document = {
    currentScript: script,
    readyState: opts.readyState ?? 'loading',
    visibilityState: opts.hidden ? 'hidden' : 'visible',
    head: { appendChild: (el: (typeof appended)[number]) => appended.push(el) },
    createElement: (tag: string) => ({ tag }),
    addEventListener: (type: string, fn: Listener) => (docListeners[type] ??= []).push(fn),
    querySelectorAll: (sel: string) => (sel === 'img[elementtiming="first-screen"]' ? (opts.images ?? []) : []),
  };
  class PerformanceObserver {
    static supportedEntryTypes = opts.timing === false ? ['mark', 'measure'] : ['element', 'largest-contentful-paint', 'paint'];
    types: string[] = [];
    constructor(public cb: (l: { getEntries(): Entry[] }) => void) {
      observers.push(this);
    }
    observe({ type }: { type: string }) {
      this.types.push(type);
      const old = buffered.filter((e) => e.entryType === type);
      if (old.length) this.cb({ getEntries: () => old });
    }
  }
  const window = { innerWidth: 400, innerHeight: 800, PerformanceObserver };
  runInNewContext(BOOT_SCRIPT, {
    document,
    window,
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
  });
  const code = () => appended.filter((el) => el.tag === 'script').length;
  return {
    appended,
    code,
    /** The browser reports an entry (as it would, after presenting the frame). */
    report(e: Entry) {
      buffered.push(e);
      for (const o of observers) if (o.types.includes(e.entryType)) o.cb({ getEntries: () => [e] });
    },
    /** Runs the timers that are due within `ms` (0: only those already due). */
    tick(ms = 0) {
      const due = timers.filter((x) => x.ms <= ms);
      timers.splice(0, timers.length, ...timers.filter((x) => x.ms > ms));
      for (const t of due) t.fn();
    },
    frame() {
      for (const f of frames.splice(0)) f();
    },
    dispatch(type: string) {
      for (const fn of docListeners[type] ?? []) fn();
    },
  };
}

const fcp = { name: 'first-contentful-paint', entryType: 'paint' };

describe('the boot script of a drawn page', () => {
  it('starts the code once the first contentful paint and every first-screen image are reported, not before', () => {
    const a = new FakeImg();
    const b = new FakeImg();
    const page = browser({ images: [a, b] });
    page.dispatch('DOMContentLoaded');
    page.frame();
    page.tick();
    expect(page.code()).toBe(0);
    page.report(fcp);
    page.tick();
    expect(page.code()).toBe(0);
    page.report({ name: '', entryType: 'element', element: a });
    page.tick();
    expect(page.code()).toBe(0);
    page.report({ name: '', entryType: 'element', element: b });
    page.tick();
    expect(page.code()).toBe(1);
    expect(page.appended).toEqual([
      { tag: 'link', rel: 'modulepreload', crossOrigin: '', href: '/assets/a.js' },
      { tag: 'link', rel: 'modulepreload', crossOrigin: '', href: '/assets/b.js' },
      { tag: 'script', type: 'module', crossOrigin: '', src: '/assets/index.js' },
    ]);
  });

  it('waits for nothing before the whole document is there', () => {
    const page = browser();
    page.report(fcp);
    page.tick(10_000);
    expect(page.code()).toBe(0);
    page.dispatch('DOMContentLoaded');
    page.tick();
    expect(page.code()).toBe(1);
  });

  it('counts an image that failed as done, and does not wait for images out of view or already broken', () => {
    const failing = new FakeImg();
    const below = new FakeImg({ top: 900, bottom: 1100, left: 0, right: 180 });
    const hidden = new FakeImg({ top: 0, bottom: 0, left: 0, right: 0 });
    const broken = new FakeImg(undefined, true, 0);
    const page = browser({ readyState: 'complete', images: [failing, below, hidden, broken] });
    page.report(fcp);
    page.tick();
    expect(page.code()).toBe(0);
    failing.fire('error');
    page.tick();
    expect(page.code()).toBe(1);
  });

  it('sees entries the browser reported before it was listening (buffered)', () => {
    const img = new FakeImg();
    const page = browser({ images: [img] });
    page.report(fcp);
    page.report({ name: '', entryType: 'element', element: img });
    page.dispatch('DOMContentLoaded');
    page.tick();
    expect(page.code()).toBe(1);
  });

  it('gives up waiting after 2.5 s, at the first key or pointer press, or when the tab is hidden', () => {
    for (const nudge of ['timeout', 'keydown', 'pointerdown', 'visibilitychange'] as const) {
      const page = browser({ images: [new FakeImg()] });
      page.dispatch('DOMContentLoaded');
      page.tick(2499);
      expect(page.code(), nudge).toBe(0);
      if (nudge === 'timeout') page.tick(2500);
      else page.dispatch(nudge);
      expect(page.code(), nudge).toBe(1);
    }
  });

  it('starts at once in a hidden tab, which paints nothing', () => {
    const page = browser({ readyState: 'interactive', hidden: true, images: [new FakeImg()] });
    expect(page.code()).toBe(1);
  });

  it('without Paint and Element Timing, starts in the frame after the next paint', () => {
    const page = browser({ timing: false, images: [new FakeImg()] });
    page.dispatch('DOMContentLoaded');
    page.tick();
    expect(page.code()).toBe(0);
    page.frame();
    page.tick();
    expect(page.code()).toBe(1);
  });

  it('starts the code once, whatever arrives after', () => {
    const page = browser({ readyState: 'complete' });
    page.report(fcp);
    page.tick();
    page.dispatch('pointerdown');
    page.report(fcp);
    page.tick(10_000);
    expect(page.code()).toBe(1);
    expect(page.appended).toHaveLength(3);
  });
});
