import { Link, useSearch } from '@tanstack/react-router';
import { ShieldCheck } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { buttonClasses, Skeleton } from '@web/components/ui';
import { useSession } from '@web/features/auth/session';
import { KnownAnswerVectors } from '@web/features/fairness/vectors';
import { VaultSection } from '@web/features/fairness/vault-section';

// A player's seeds and openings (with the rotate dialog, its Radix code and the verifier) are for
// a signed-in session: a visitor's first load of /fairness does not carry them (issue 21).
const SeedsPanel = lazy(() => import('@web/features/fairness/seeds-panel').then((m) => ({ default: m.SeedsPanel })));
const MyOpenings = lazy(() => import('@web/features/fairness/verify').then((m) => ({ default: m.MyOpenings })));

const REFERENCE = `import { createHmac, createHash } from 'node:crypto';

const TWO_32 = 2 ** 32;

function* words(serverSeed, clientSeed, nonce, slot) {
  for (let round = 0; ; round++) {
    const block = createHmac('sha256', serverSeed)
      .update(\`\${clientSeed}:\${nonce}:\${slot}:\${round}\`).digest();
    for (let i = 0; i < 32; i += 4) yield block.readUInt32BE(i);
  }
}

// A uniform integer in [0, n): reject words at or above the largest multiple of n.
function uniform(stream, n) {
  const limit = TWO_32 - (TWO_32 % n);
  for (;;) { const u = stream.next().value; if (u < limit) return u % n; }
}

// slots: [{ odds: [{ classId, weight }] }], pools: { classId: [cardId, …] }
function draw(serverSeed, clientSeed, nonce, slots, pools, exhaustedAt = new Set()) {
  const left = Object.fromEntries(Object.entries(pools).map(([k, v]) => [k, [...v].sort()]));
  return slots.map((s, slot) => {
    const stream = words(serverSeed, clientSeed, nonce, slot);
    const total = s.odds.reduce((a, o) => a + o.weight, 0);
    let r = uniform(stream, total), i = 0;
    while (r >= s.odds[i].weight) r -= s.odds[i++].weight;
    const pool = left[s.odds[i].classId];
    const poolSize = pool.length;
    const index = uniform(stream, poolSize);
    const cardId = pool[index];
    if (exhaustedAt.has(slot)) pool.splice(index, 1); // its last copy was taken
    return { slot, classId: s.odds[i].classId, poolSize, index, cardId };
  });
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');`;

/** /fairness — how every draw works, precisely enough to re-implement; plus seeds and verification when signed in. */
export default function FairnessPage() {
  const { data: me } = useSession();
  const search = useSearch({ strict: false }) as { opening?: unknown };
  const opening = typeof search.opening === 'string' ? search.opening : undefined;
  return (
    <div className="space-y-10">
      <header className="space-y-3">
        <p className="text-xs font-semibold tracking-widest text-fuchsia-300 uppercase">Provably fair</p>
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white sm:text-4xl">
          <ShieldCheck aria-hidden="true" className="size-9 text-emerald-300" /> Every pull can be checked
        </h1>
        <p className="max-w-3xl text-lg text-zinc-300">
          We commit to your draws before you open anything, you add your own randomness, and afterwards your browser
          recomputes each opening to the card. Here is exactly how, so anyone can re-implement it.
        </p>
        <p className="max-w-3xl text-zinc-300">
          Every pack&apos;s odds, card pool and card values are published before the first pack is opened under them (each
          pack&apos;s odds history, linked from its page), and what every pack promised against what it actually gave back
          is public: <Link to="/fairness/returns" className="text-violet-300 underline underline-offset-4">realised returns</Link>.
        </p>
      </header>

      {me ? (
        <div className="grid grid-cols-1 gap-8 xl:grid-cols-[24rem_minmax(0,1fr)]">
          <Suspense fallback={<Skeleton className="h-80 w-full" />}>
            <SeedsPanel />
          </Suspense>
          <Suspense fallback={<Skeleton className="h-80 w-full" />}>
            <MyOpenings initialOpening={opening} />
          </Suspense>
        </div>
      ) : (
        <div className="flex flex-col gap-4 rounded-2xl border border-violet-400/25 bg-violet-500/[0.06] p-6 sm:flex-row sm:items-center">
          <p className="flex-1 text-zinc-200">
            Sign in to see your seeds, change your client seed, rotate your server seed and verify your openings.
          </p>
          <Link to="/sign-in" search={{ redirect: '/fairness' }} className={buttonClasses()}>
            Sign in
          </Link>
        </div>
      )}

      <article className="prose-vault" aria-labelledby="algo-title">
        <h2 id="algo-title">The algorithm</h2>
        <h3>1. Your seed pair</h3>
        <p>
          Each account has a <strong>server seed</strong>: 32 random bytes written as 64 lowercase hex characters,
          secret while it is active. Before any opening we show you its <strong>SHA-256 hash</strong> (of the UTF-8
          text, hex-encoded), so we cannot swap the seed afterwards. The <strong>client seed</strong> is 1–64 characters
          of <code>A-Z a-z 0-9 . _ -</code>, yours to change at any time. The <strong>nonce</strong> is 0 for the first
          opening with a server seed, then 1, 2, … Changing the client seed does not reset it, so no (server seed, client
          seed, nonce) triple is ever used twice; rotating starts a new server seed at nonce 0. Opening several packs at
          once uses consecutive nonces, in the order the packs are listed.
        </p>
        <h3>2. A stream of random numbers per card slot</h3>
        <p>
          For the card in slot <code>s</code> (0-based) of the opening with nonce <code>n</code>, we compute
        </p>
        <p>
          <code>HMAC-SHA256(key = serverSeed, message = "clientSeed:n:s:round")</code>
        </p>
        <p>
          with the UTF-8 bytes of both strings, for <code>round</code> = 0, 1, 2, … as needed. Each 32-byte result is
          split into eight 32-bit unsigned integers, read <strong>big-endian</strong>, in order. That is the slot&apos;s
          word stream.
        </p>
        <h3>3. Picking a number without bias</h3>
        <p>
          To pick a whole number in <code>[0, N)</code> we read the next word <code>u</code>. If{' '}
          <code>u ≥ 2³² − (2³² mod N)</code> it is rejected and the next word is read; otherwise the result is{' '}
          <code>u mod N</code>. Rejecting the top sliver is what removes modulo bias: every result is exactly equally
          likely.
        </p>
        <h3>4. The class, then the card</h3>
        <ol>
          <li>
            The slot&apos;s odds are integer <strong>weights</strong> per class, in the listed order. The percentages
            you see are <code>weight ÷ total</code>, so they always sum to exactly 100%. We pick{' '}
            <code>r</code> in <code>[0, total)</code> and walk the classes, adding weights, until the running sum
            exceeds <code>r</code>.
          </li>
          <li>
            The class&apos;s <strong>pool</strong> is the ids of the cards the pack may give from that class — active,
            not archived, in the pack&apos;s card list if it has one, and with stock — sorted ascending as strings (they
            are lowercase UUIDs). We pick the card&apos;s <code>index</code> in <code>[0, pool size)</code> from the
            same stream, right after the class draw; the card is <code>pool[index]</code>.
          </li>
          <li>
            If that draw took a card&apos;s last copy, the card leaves the pool for the later slots of the same
            opening (the stored proof marks it <code>exhausted</code>). If a class in the odds has no stock at all, the
            pack is sold out: the odds are never changed to work around it.
          </li>
        </ol>
        <h3>5. What each opening stores</h3>
        <p>
          The server seed&apos;s hash, the client seed, the nonce, the odds used (slots and weights), a hash of the odds,
          a hash of the pools, and every slot&apos;s class, pool size, index and card. The odds hash is the SHA-256 of
          one line per slot, each <code>classId=weight</code> joined by commas, lines joined by <code>\n</code>. The
          pool hash is the SHA-256 of one line per class (classes sorted by id), each <code>classId:</code> followed by
          its sorted card ids joined by commas, lines joined by <code>\n</code>. The pools themselves are published at{' '}
          <code>/api/fairness/pools/&lt;pool hash&gt;</code>.
        </p>
        <h3>6. Verifying</h3>
        <p>
          Rotate your seed: we reveal the old server seed and start a new one. Check that the revealed seed hashes to the
          hash you were shown, then recompute each opening with the steps above. Your browser does exactly this with Web
          Crypto when you press <strong>Verify</strong> — nothing is taken on trust from our server, and the code is
          the same that runs on our side (<code>src/shared/fairness.ts</code>).
        </p>
        <h3>A reference implementation (Node.js)</h3>
        <pre className="overflow-x-auto rounded-xl bg-black/50 p-4 text-xs leading-relaxed text-zinc-200 ring-1 ring-white/10">
          <code>{REFERENCE}</code>
        </pre>
        <h3>Known-answer vectors</h3>
        <p>
          Check your own implementation against these (they are also in the project&apos;s <code>docs/fairness.md</code>{' '}
          and its tests). Worked example: nonce 0, slot 0 — the weights sum to 100, the first word 3990879100 is below
          the limit 4294967200, and 3990879100 mod 100 = 0 → <code>c1</code>; the next word 522782655 mod 5 = 0 →{' '}
          <code>a1</code>.
        </p>
        <KnownAnswerVectors />
      </article>

      <VaultSection />
    </div>
  );
}
