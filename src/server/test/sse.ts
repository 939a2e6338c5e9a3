/** Reads Server-Sent Events from a fetch Response body (tests only). */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export function sseReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pending: SseEvent[] = [];

  const parse = () => {
    let idx: number;
    while ((idx = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, idx);
      buffer = buffer.slice(idx + 2);
      const ev: SseEvent = { event: 'message', data: '' };
      let hasData = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const [k, ...rest] = line.split(':');
        const v = rest.join(':').replace(/^ /, '');
        if (k === 'event') ev.event = v;
        else if (k === 'data') {
          ev.data += (hasData ? '\n' : '') + v;
          hasData = true;
        } else if (k === 'id') ev.id = v;
      }
      if (hasData) pending.push(ev);
    }
  };

  return {
    /** The next event matching `type` (skipping others), or throws after timeoutMs. */
    async next(type?: string, timeoutMs = 5000): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = pending.findIndex((e) => !type || e.event === type);
        if (i !== -1) return pending.splice(i, 1)[0]!;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no '${type ?? 'any'}' event within ${timeoutMs} ms`);
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`no '${type ?? 'any'}' event within ${timeoutMs} ms`)), left)),
        ]);
        if (chunk.done) throw new Error('stream ended');
        buffer += decoder.decode(chunk.value, { stream: true });
        parse();
      }
    },
    async close() {
      await reader.cancel().catch(() => {});
    },
  };
}
