// Zod 4 probes `new Function('')` the first time it builds an object schema, to decide whether it
// may compile fast parsers. Our CSP has no 'unsafe-eval', so the probe throws (harmlessly) but
// Chrome still logs a CSP violation in the Issues panel, which costs Lighthouse's best-practices
// score on every page that loads a contract. `jitless` skips the probe. Zod reads this object
// from globalThis when its core first loads, so it is set here, the first import of main.tsx,
// without importing zod into the entry chunk.
const g = globalThis as { __zod_globalConfig?: Record<string, unknown> };
g.__zod_globalConfig = Object.assign(g.__zod_globalConfig ?? {}, { jitless: true });
