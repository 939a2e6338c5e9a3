// Self-test of the open-loop generator (not part of `npm test`), about 12 s:
//   node --import tsx bench/lib/open-loop.selftest.ts
// Test servers run in a child process (their own event loop, as the real server has):
// - fast: answers after a 5 ms setTimeout, checks every request's framing and per-request header;
// - slow: one request at a time, 5 ms each (capacity 200/s), loaded at 300/s: latencies must grow
//   over the run (a closed-loop or burst generator would hide that: coordinated omission);
// - odd: chunked bodies, `connection: close` on every 10th answer, 409 on every 10th, and every 25th
//   request's connection destroyed without an answer;
// - idle: closes connections idle for 200 ms, loaded at 5/s, so the server closes idle connections;
// - and a port where nothing listens: openLoop must reject, not hang.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { openLoop } from './open-loop.ts';
import type { LoadResult } from './load.ts';

const SERVERS = `
const http = require('node:http');
const body = JSON.stringify({ ok: true, pad: 'x'.repeat(300) });
const servers = {
  fast: http.createServer((req, res) => {
    let got = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (got += d));
    req.on('end', () => setTimeout(() => {
      const good = got === '{"n":1}' && /^k\\d+$/.test(req.headers['x-key'] ?? '') && req.headers['content-type'] === 'application/json';
      res.statusCode = good ? 200 : 400;
      res.end(body);
    }, 5));
  }),
  slow: (() => {
    const queue = [];
    let busy = false;
    const next = () => {
      const res = queue.shift();
      if (!res) return void (busy = false);
      busy = true;
      setTimeout(() => { res.end(body); next(); }, 5);
    };
    return http.createServer((req, res) => {
      req.resume();
      req.on('end', () => { queue.push(res); if (!busy) next(); });
    });
  })(),
  odd: (() => {
    let n = 0;
    return http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        n++;
        if (n % 25 === 0) return void req.socket.destroy();
        if (n % 10 === 0) res.setHeader('connection', 'close');
        res.statusCode = n % 10 === 3 ? 409 : 200;
        res.write('{"part":1,');
        setTimeout(() => res.end('"pad":"' + 'y'.repeat(5000) + '"}'), 1);
      });
    });
  })(),
  idle: (() => {
    let connections = 0;
    // Node closes idle keep-alive connections only 1 s after keepAliveTimeout: a timer of our own.
    const timers = new WeakMap();
    const s = http.createServer((req, res) => {
      clearTimeout(timers.get(req.socket));
      req.resume();
      req.on('end', () => res.end(req.url === '/connections' ? String(connections) : body));
      res.on('finish', () => timers.set(req.socket, setTimeout(() => req.socket.end(), 200)));
    });
    s.on('connection', () => connections++);
    return s;
  })(),
};
const ports = {};
let left = Object.keys(servers).length;
for (const [name, s] of Object.entries(servers)) s.listen(0, '127.0.0.1', () => {
  ports[name] = s.address().port;
  if (--left === 0) console.log(JSON.stringify(ports));
});
`;

let failures = 0;
function check(name: string, ok: boolean, detail: string) {
  if (!ok) failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
}
const show = (r: LoadResult) =>
  `achieved ${r.rps}/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, mean ${r.mean_ms} ms, ok ${r.ok}, non2xx ${r.non2xx}, errors ${r.errors}, ` +
  `late ${r.late}, unanswered ${r.unanswered}, connections ${r.connections}, send lag mean/p99 ${r.send_lag_mean_ms}/${r.send_lag_p99_ms} ms, status ${JSON.stringify(r.status)}`;

const child = spawn(process.execPath, ['-e', SERVERS], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const [first] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const ports = JSON.parse(first) as Record<'fast' | 'slow' | 'odd' | 'idle', number>;
  const url = (name: keyof typeof ports) => `http://127.0.0.1:${ports[name]}/api/x`;
  let key = 0;
  const perRequest = () => ({ headers: { 'x-key': `k${key++}`, cookie: `s=${key}` } });

  // 1. A server far from its capacity: latency ≈ its 5 ms, achieved ≈ the rate.
  const cpu0 = process.cpuUsage();
  const fast = await openLoop({ url: url('fast'), method: 'POST', body: '{"n":1}', connections: 16, duration: 3, rate: 500, perRequest });
  const cpu = process.cpuUsage(cpu0);
  console.log(`fast @500/s: ${show(fast)}\n     generator CPU per request ${((cpu.user + cpu.system) / 1000 / (fast.ok + fast.non2xx + fast.errors)).toFixed(3)} ms (user ${(cpu.user / 1000 / fast.ok).toFixed(3)})`);
  check('fast achieved', Math.abs(fast.rps - 500) <= 50, `${fast.rps}/s (Poisson: 500 ± 13 is 1 σ over 3 s)`);
  check('fast p50', fast.p50_ms! >= 5 && fast.p50_ms! <= 7.5, `${fast.p50_ms} ms`);
  check('fast framing', fast.non2xx === 0 && fast.errors === 0 && fast.ok === fast.status['200'], `non2xx ${fast.non2xx}, errors ${fast.errors}`);

  // 2. Capacity (200/s) below the rate (300/s): the backlog grows by ~100 requests (~0.5 s) a second.
  const buckets = Array.from({ length: 6 }, () => ({ n: 0, sum: 0 }));
  const slow = await openLoop({
    url: url('slow'),
    connections: 16,
    duration: 3,
    rate: 300,
    onSample: (at, ms) => {
      const b = buckets[Math.min(5, Math.max(0, Math.floor(at / 500)))]!;
      b.n++;
      b.sum += ms;
    },
  });
  const means = buckets.map((b) => (b.n ? Math.round(b.sum / b.n) : 0));
  console.log(`slow @300/s: ${show(slow)}\n     mean latency by scheduled half-second: ${means.join(', ')} ms`);
  // The 5 ms timers stretch on a busy machine, so the capacity is at most 200/s, not exactly.
  check('slow achieved ≤ capacity', slow.rps <= 215, `${slow.rps}/s`);
  check('slow latencies grow', means.every((m, i) => i === 0 || m > means[i - 1]!) && means[5]! - means[0]! > 800, `${means[0]} → ${means[5]} ms`);
  check('slow late answers waited for', slow.late! > 100 && slow.unanswered === 0 && slow.ok === slow.status['200'], `late ${slow.late}, unanswered ${slow.unanswered}`);

  // 3. Chunked bodies, connection: close, 409s and connections destroyed under a request.
  const odd = await openLoop({ url: url('odd'), connections: 8, duration: 1.5, rate: 200, perRequest });
  console.log(`odd @200/s: ${show(odd)}`);
  const total = odd.ok + odd.non2xx + odd.errors;
  check('odd counts', odd.errors === Math.floor(total / 25) && odd.unanswered === 0 && odd.non2xx > 0 && odd.p50_ms! < 10, `${odd.ok} ok + ${odd.non2xx} non2xx + ${odd.errors} errors = ${total}`);

  // 4. The server closes connections idle for 200 ms; at 5/s a third of the gaps are longer.
  const idle = await openLoop({ url: url('idle'), connections: 2, duration: 2, rate: 5 });
  const connections = Number(await (await fetch(`http://127.0.0.1:${ports.idle}/connections`)).text()) - 1;
  console.log(`idle @5/s: ${show(idle)}\n     connections the server accepted: ${connections}`);
  check('idle reconnects without errors', idle.errors === 0 && idle.ok >= 3 && connections > 2, `errors ${idle.errors}, ok ${idle.ok}, connections ${connections}`);

  // 5. Nothing listening: fails fast instead of hanging.
  const t0 = Date.now();
  const dead = await openLoop({ url: 'http://127.0.0.1:9/', connections: 2, duration: 1, rate: 10 }).then(
    () => 'resolved',
    (e: Error) => e.message,
  );
  check('dead server', dead !== 'resolved' && Date.now() - t0 < 1000, dead);
} finally {
  child.kill();
}
console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
