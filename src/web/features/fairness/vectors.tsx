import { useState } from 'react';
import { drawOpening, oddsHash, poolHash, sha256Hex, toHex, webCryptoFair } from '@shared/fairness';
import { Button, Notice, Table, TBody, Td, Th, THead, Tr } from '@web/components/ui';

/** The known-answer vectors of docs/fairness.md, so anyone can check an implementation against them. */
export const VECTORS = {
  serverSeed: '7f3c2a1b9e8d4c6f5a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5',
  clientSeed: 'packvault-demo',
  serverSeedHash: '35f70e8bce62fb726d728417ba7c444d95d450001d4d996d12c017c568fefad1',
  firstBlock: 'eddffb7c1f2907bff1cfcfbf995756cb0096c3ae314a5eca4a247372056024c7',
  slots: [
    { odds: [{ classId: 'c1', weight: 70 }, { classId: 'c2', weight: 25 }, { classId: 'c3', weight: 5 }] },
    { odds: [{ classId: 'c1', weight: 70 }, { classId: 'c2', weight: 25 }, { classId: 'c3', weight: 5 }] },
    { odds: [{ classId: 'c2', weight: 3 }, { classId: 'c3', weight: 1 }] },
  ],
  pools: { c1: ['a1', 'a2', 'a3', 'a4', 'a5'], c2: ['b1', 'b2', 'b3'], c3: ['z1'] } as Record<string, string[]>,
  oddsHash: '87503718c7149efc76f501843994d245e22c4140a1cba497a941c1e3202f5648',
  poolHash: '31322e742754f99e7a8989a1932bb33ae40bb34099e45397c217ab1e8ca32a03',
  /** nonce → per slot "class, poolSize, index, card". */
  expected: [
    ['c1, 5, 0, a1', 'c1, 5, 2, a3', 'c3, 1, 0, z1'],
    ['c2, 3, 1, b2', 'c1, 5, 3, a4', 'c2, 3, 2, b3'],
    ['c1, 5, 3, a4', 'c2, 3, 1, b2', 'c2, 3, 0, b1'],
  ],
};

interface Outcome {
  ok: boolean;
  rows: string[][];
  checks: Array<{ label: string; ok: boolean }>;
}

async function run(): Promise<Outcome> {
  const c = webCryptoFair();
  const v = VECTORS;
  const rows: string[][] = [];
  for (let nonce = 0; nonce < v.expected.length; nonce++) {
    const { draws } = await drawOpening(c, { serverSeed: v.serverSeed, clientSeed: v.clientSeed, nonce, slots: v.slots, pools: v.pools });
    rows.push(draws.map((d) => `${d.classId}, ${d.poolSize}, ${d.index}, ${d.cardId}`));
  }
  const checks = [
    { label: 'SHA-256 of the server seed', ok: (await sha256Hex(c, v.serverSeed)) === v.serverSeedHash },
    { label: 'First HMAC block', ok: toHex(await c.hmacSha256(v.serverSeed, `${v.clientSeed}:0:0:0`)) === v.firstBlock },
    { label: 'Odds hash', ok: (await oddsHash(c, v.slots)) === v.oddsHash },
    { label: 'Pool hash', ok: (await poolHash(c, v.pools)) === v.poolHash },
    { label: 'Draws of nonces 0–2', ok: rows.every((r, i) => r.join('|') === v.expected[i]!.join('|')) },
  ];
  return { ok: checks.every((x) => x.ok), rows, checks };
}

/** Runs the published vectors through this browser's Web Crypto and shows the outcome. */
export function KnownAnswerVectors() {
  const [out, setOut] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const v = VECTORS;
  return (
    <div className="not-prose space-y-4 text-sm">
      <pre className="overflow-x-auto rounded-xl bg-black/50 p-4 text-xs leading-relaxed text-zinc-200 ring-1 ring-white/10">
        <code>
          {`serverSeed = ${v.serverSeed}
clientSeed = ${v.clientSeed}
SHA-256(serverSeed) = ${v.serverSeedHash}
HMAC block "packvault-demo:0:0:0" = ${v.firstBlock}
odds: slots 0 and 1  c1=70,c2=25,c3=5 ; slot 2  c2=3,c3=1
pools: c1: a1 a2 a3 a4 a5 | c2: b1 b2 b3 | c3: z1
oddsHash = ${v.oddsHash}
poolHash = ${v.poolHash}`}
        </code>
      </pre>
      <Table caption="Expected draws (class, pool size, index, card)">
        <THead>
          <Tr>
            <Th>Nonce</Th>
            <Th>Slot 0</Th>
            <Th>Slot 1</Th>
            <Th>Slot 2</Th>
          </Tr>
        </THead>
        <TBody>
          {v.expected.map((row, n) => (
            <Tr key={n}>
              <Td>{n}</Td>
              {row.map((cell, s) => (
                <Td key={s} className="font-mono text-xs">
                  {cell}
                  {out ? (
                    <span className={out.rows[n]?.[s] === cell ? 'ml-2 text-emerald-300' : 'ml-2 text-red-300'}>
                      {out.rows[n]?.[s] === cell ? '✓' : `✗ got ${out.rows[n]?.[s] ?? '—'}`}
                    </span>
                  ) : null}
                </Td>
              ))}
            </Tr>
          ))}
        </TBody>
      </Table>
      <Button
        variant="secondary"
        size="sm"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            setOut(await run());
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        Run the vectors in this browser
      </Button>
      {error ? <Notice tone="danger">The check could not run: {error}</Notice> : null}
      {out ? (
        <Notice tone={out.ok ? 'success' : 'danger'} title={out.ok ? 'All vectors match' : 'Mismatch'}>
          <ul className="space-y-0.5" style={{ listStyle: 'none', paddingLeft: 0 }}>
            {out.checks.map((c) => (
              <li key={c.label}>
                {c.ok ? '✓' : '✗'} {c.label}
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}
    </div>
  );
}
