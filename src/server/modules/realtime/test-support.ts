import type { Bus, BusEvent, BusListener, Topic } from './bus.ts';

/**
 * An in-memory bus with the real one's delivery and history semantics: every subscriber gets every
 * event (as NOTIFY delivers to every process), and `since` replays after an id. `sent` is the
 * history, in order.
 */
export function memoryBus(): { bus: Bus; sent: BusEvent[] } {
  const listeners = new Set<BusListener>();
  const sent: BusEvent[] = [];
  let n = 0;
  const deliver = (event: BusEvent) => {
    sent.push(event);
    for (const l of listeners) l(event);
  };
  const bus: Bus = {
    publish(topic: Topic, type: string, data: unknown = {}) {
      const event: BusEvent = { id: `e${++n}`, topic, type, data };
      deliver(event);
      return Promise.resolve(event);
    },
    publishMany(events) {
      for (const e of events) deliver(e);
      return Promise.resolve();
    },
    eventSql: () => null,
    shared: false,
    newEventId: () => `e${++n}`,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    since(lastId) {
      const i = sent.findIndex((e) => e.id === lastId);
      return i === -1 ? null : sent.slice(i + 1);
    },
    close: () => Promise.resolve(),
    get subscriberCount() {
      return listeners.size;
    },
  };
  return { bus, sent };
}
