import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPglite } from './db/pglite.ts';
import { describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './test/server-process.ts';

/** The real server on its own PGlite directory, with nothing but what this test states. */
function startServer(dataDir: string) {
  const proc = startServerProcess({ DATA_DIR: dataDir, HOST: '127.0.0.1', SEED_DEMO: 'false', NODE_ENV: 'development' });
  const listening = proc.listening.then((port) => `http://127.0.0.1:${port}`);
  // A server expected to fail never listens; keep that rejection from going unobserved.
  listening.catch(() => {});
  return { ...proc, listening };
}

async function stop(server: Pick<ServerProcess, 'stop'>) {
  const started = Date.now();
  const code = await server.stop();
  return { code, ms: Date.now() - started };
}

// Three cold starts through tsx (transpile, PGlite, every migration): on a loaded 2-core CI
// machine running the rest of the suite in parallel that has taken over two minutes.
describe('the server process', () => {
  it('locks its data directory, shuts down cleanly on SIGTERM, and keeps data across restarts', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pv-proc-'));
    const a = startServer(dataDir);
    const url = await a.listening;
    expect(await (await fetch(`${url}/api/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${url}/api/ready`)).json()).toEqual({ status: 'ready' });

    // Something to find after the restart.
    const envelope = [
      JSON.stringify({ event_id: 'persist-me', dsn: `http://localhost:${new URL(url).port}/monitoring` }),
      JSON.stringify({ type: 'event' }),
      JSON.stringify({ message: 'persist me' }),
    ].join('\n');
    // The expected DSN is derived from PUBLIC_URL (defaults to localhost:PORT); PORT=0 here, so
    // read the server's own idea of it.
    const cfg = (await (await fetch(`${url}/api/config`)).json()) as { monitoringDsn: string };
    const body = envelope.replace(/"dsn":"[^"]+"/, `"dsn":"${cfg.monitoringDsn}"`);
    expect((await fetch(`${url}/monitoring`, { method: 'POST', body })).status).toBe(200);

    // A second process on the same directory exits at once with a clear message.
    const b = startServer(dataDir);
    const bCode = await b.exited;
    expect(bCode).not.toBe(0);
    expect(b.output().err).toMatch(/data directory is in use by another Packvault process/);

    // An open SSE stream must not hold shutdown up.
    const ctl = new AbortController();
    const sse = await fetch(`${url}/api/events`, { signal: ctl.signal });
    expect(sse.status).toBe(200);

    const { code, ms } = await stop(a);
    ctl.abort();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(5000);
    expect(a.output().out).toContain('"msg":"stopped"');

    // Restart: same data.
    const c = startServer(dataDir);
    const url2 = await c.listening;
    expect((await fetch(`${url2}/api/health`)).status).toBe(200);
    await stop(c);

    const db = await createPglite(path.join(dataDir, 'pglite'));
    const rows = await db.query<{ event_id: string }>('select event_id from monitoring_reports');
    await db.close();
    expect(rows.rows.map((r) => r.event_id)).toEqual(['persist-me']);
  }, 240_000);
});
