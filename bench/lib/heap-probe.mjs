// Preloaded into the bench's server (`node --import`) by the realtime phase: on SIGUSR2 the
// server writes process.memoryUsage() to BENCH_HEAP_FILE, so the bench can read the V8 heap of
// the process without an endpoint in the app. gc() first when --expose-gc is on, so the figure is
// live data rather than whatever the last collection left.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_HEAP_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    if (typeof globalThis.gc === 'function') globalThis.gc();
    writeFileSync(file, JSON.stringify(process.memoryUsage()));
  });
}
