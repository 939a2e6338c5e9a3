import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { memoryBus } from './test-support.ts';
import { createFanout, HEARTBEAT_MS, MAX_QUEUED_BYTES, type NodeResponse } from './fanout.ts';

const fakeBus = () => memoryBus().bus;

/** Reads a stream in the background, as a socket would, so tests can look at what arrived. */
function collect(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const got = { text: '', done: false, error: null as unknown, cancel: () => reader.cancel() };
  void (async () => {
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done) break;
        got.text += decoder.decode(r.value);
      }
      got.done = true;
    } catch (err) {
      got.error = err;
    }
  })();
  return got;
}

/** Lets queued stream reads settle. */
const settle = () => new Promise<void>((r) => setImmediate(r));

const log = createLogger('silent');

afterEach(() => {
  vi.useRealTimers();
});

describe('realtime fan-out', () => {
  const open = (fanout: ReturnType<typeof createFanout>, userTopic: string | null, lastEventId?: string) =>
    fanout.open({ userTopic, signedIn: userTopic !== null, lastEventId });

  it('sends public events to everyone and user events only to that user', async () => {
    const bus = fakeBus();
    const fanout = createFanout(bus, new AbortController().signal, log);
    const alice = collect(open(fanout, 'user:alice'));
    const bob = collect(open(fanout, 'user:bob'));
    const visitor = collect(open(fanout, null));

    await bus.publish('user:alice', 'balance.changed', { balanceCents: 5 });
    const pub = await bus.publish('public', 'pull.created', { openingId: 'o1' });
    await settle();

    expect(alice.text).toBe(
      'event: hello\ndata: {"user":true}\nretry: 3000\n\n' +
        'event: balance.changed\ndata: {"balanceCents":5}\nid: e1\n\n' +
        `event: pull.created\ndata: {"openingId":"o1"}\nid: ${pub.id}\n\n`,
    );
    expect(bob.text).not.toContain('balance.changed');
    expect(bob.text).toContain('event: pull.created');
    expect(visitor.text).toContain('data: {"user":false}');
    expect(visitor.text).not.toContain('balance.changed');
    expect(visitor.text).toContain('event: pull.created');
  });

  it('never sends internal events (cache invalidation) to a browser, live or replayed', async () => {
    const bus = fakeBus();
    const fanout = createFanout(bus, new AbortController().signal, log);
    const first = await bus.publish('public', 'pull.created', { n: 1 });
    await bus.publish('internal', 'cache.invalidated', { scope: 'catalog' });
    const replayed = collect(open(fanout, 'user:alice', first.id));
    const live = collect(open(fanout, null));
    await bus.publish('internal', 'cache.invalidated', { scope: 'products' });
    await bus.publish('public', 'pull.created', { n: 2 });
    await settle();
    for (const c of [replayed, live]) {
      expect(c.text).not.toContain('cache.invalidated');
      expect(c.text).toContain('data: {"n":2}');
    }
  });

  it('replays what a reconnecting client missed (its own and public events only), then goes live', async () => {
    const bus = fakeBus();
    const fanout = createFanout(bus, new AbortController().signal, log);
    const first = await bus.publish('public', 'pull.created', { n: 1 });
    await bus.publish('user:bob', 'balance.changed', { n: 2 });
    await bus.publish('user:alice', 'balance.changed', { n: 3 });
    const alice = collect(open(fanout, 'user:alice', first.id));
    await bus.publish('public', 'pull.created', { n: 4 });
    await settle();
    expect([...alice.text.matchAll(/data: \{"n":(\d)\}/g)].map((m) => m[1])).toEqual(['3', '4']);

    const gone = collect(open(fanout, null, 'long-gone'));
    await settle();
    expect(gone.text).toContain('event: reset\ndata: {}\n\n');
  });

  it('drops a client that stops reading instead of buffering for it without bound', async () => {
    const bus = fakeBus();
    const fanout = createFanout(bus, new AbortController().signal, log);
    const stuck = open(fanout, null).getReader();
    const reading = collect(open(fanout, null));
    const pad = 'x'.repeat(1000);
    const events = Math.ceil((MAX_QUEUED_BYTES * 2) / 1000);
    for (let i = 0; i < events; i++) {
      await bus.publish('public', 'pull.created', { pad });
      await settle();
    }
    expect(fanout.clientCount).toBe(1);
    await expect(stuck.read()).rejects.toThrow(/too slow/);
    expect(reading.text.split('event: pull.created').length - 1).toBe(events);
    expect(reading.error).toBeNull();
  });

  it('does not count a burst written in one turn of the event loop as a slow client', async () => {
    const bus = fakeBus();
    const fanout = createFanout(bus, new AbortController().signal, log);
    const reading = collect(open(fanout, null));
    const pad = 'x'.repeat(1000);
    const events = Math.ceil((MAX_QUEUED_BYTES * 2) / 1000);
    // Published back to back: nothing can be read in between.
    await Promise.all(Array.from({ length: events }, () => bus.publish('public', 'pull.created', { pad })));
    await settle();
    expect(fanout.clientCount).toBe(1);
    expect(reading.text.split('event: pull.created').length - 1).toBe(events);
  });

  it('writes to the Node response directly only once the stream has handed over everything', async () => {
    const bus = fakeBus();
    const fanout = createFanout(bus, new AbortController().signal, log);
    const direct: string[] = [];
    const node: NodeResponse = {
      headersSent: true,
      writableLength: 0,
      destroyed: false,
      writableEnded: false,
      write: (chunk) => direct.push(new TextDecoder().decode(chunk)) > 0,
      destroy: () => {},
    };
    const reader = fanout.open({ userTopic: null, signedIn: false, lastEventId: undefined, node }).getReader();
    await bus.publish('public', 'one', {});
    // Nobody has read the stream yet: frames must keep going through it, behind what is queued.
    await new Promise((r) => setTimeout(r, 60));
    await bus.publish('public', 'two', {});
    expect(direct).toEqual([]);
    const streamed: string[] = [];
    for (let i = 0; i < 3; i++) streamed.push(new TextDecoder().decode((await reader.read()).value));
    expect(streamed.map((f) => f.slice(0, f.indexOf('\n')))).toEqual(['event: hello', 'event: one', 'event: two']);
    const pending = reader.read();
    await new Promise((r) => setTimeout(r, 60));
    await bus.publish('public', 'three', {});
    expect(direct).toEqual(['event: three\ndata: {}\nid: e3\n\n']);
    await reader.cancel();
    await pending;
  });

  it('pings a stream that has been idle for the heartbeat interval', async () => {
    vi.useFakeTimers();
    const bus = fakeBus();
    const fanout = createFanout(bus, new AbortController().signal, log);
    const client = collect(open(fanout, null));
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS - 1000);
    await bus.publish('public', 'marker', {});
    // Idle since the marker: no ping before HEARTBEAT_MS has passed, one soon after.
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS - 1000);
    expect(client.text).toContain('event: marker');
    expect(client.text).not.toContain(': ping');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(client.text.endsWith('id: e1\n\n: ping\n\n')).toBe(true);
  });

  it('ends every stream on shutdown and stops listening to the bus when the last client leaves', async () => {
    const bus = fakeBus();
    const shutdown = new AbortController();
    const fanout = createFanout(bus, shutdown.signal, log);
    const a = collect(open(fanout, null));
    const b = collect(open(fanout, 'user:b'));
    expect(bus.subscriberCount).toBe(1);
    await b.cancel();
    expect(fanout.clientCount).toBe(1);

    shutdown.abort();
    await settle();
    expect(a.done).toBe(true);
    // The last frame says why the stream ends and how soon to reconnect (spread over 1–3 s).
    expect(a.text).toMatch(/event: server\.closing\ndata: \{"retryMs":(\d+)\}\nretry: \1\n\n$/);
    const retry = Number(/retry: (\d+)\n\n$/.exec(a.text)![1]);
    expect(retry).toBeGreaterThanOrEqual(1000);
    expect(retry).toBeLessThan(3000);
    expect(fanout.clientCount).toBe(0);
    expect(bus.subscriberCount).toBe(0);

    // A client arriving during shutdown gets its hello, the goodbye and an ended stream.
    const late = collect(open(fanout, null));
    await settle();
    expect(late.done).toBe(true);
    expect(late.text).toMatch(/^event: hello\ndata: \{"user":false\}\nretry: 3000\n\nevent: server\.closing\ndata: \{"retryMs":\d+\}\nretry: \d+\n\n$/);
  });
});
