import { createHash } from 'node:crypto';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client.ts';
import { vaultHoldings, vaultSnapshots, vaultTreeChunks } from '../../db/schema/vault-proof.ts';
import { retentionOf } from '../../config.ts';
import type { Deps } from '../../deps.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { ActorCtx } from '../../http/types.ts';
import type { Job } from '../../jobs/scheduler.ts';
import { paged, type Paged } from '../../../shared/contracts/paging.ts';
import type { VaultDiff, VaultKeyInfo, VaultSnapshotDetail, VaultSnapshotSummary } from '../../../shared/contracts/vault-proof.ts';
import {
  siblingPositions,
  VAULT_HOUSE_HOLDER,
  VAULT_PROOF_FORMAT,
  VAULT_STATEMENT_TYPE,
  type VaultProofFile,
  type VaultProofLeaf,
  type VaultStatement,
  type VaultTotals,
} from '../../../shared/vault-proof.ts';
import { audit } from '../audit/service.ts';
import { cards } from '../catalog/tables.ts';
import { dropPrizes, drops } from '../drops/tables.ts';
import { cardSlabs, ownedCards } from '../inventory/tables.ts';
import { holderSalt, signStatement, vaultKey } from './keys.ts';
import { buildLevels, commitmentOf, leafHash, rootOf, sortOrder } from './tree.ts';

/** Hashes per stored chunk of a level (128 KB). */
export const VAULT_CHUNK = 4096;
/** Rows per FETCH from the snapshot's cursor. */
const FETCH_ROWS = 20_000;
/** How often the snapshot job runs (scripts/scale-test.ts checks each job runs once per interval). */
export const VAULT_SNAPSHOT_EVERY_MS = 24 * 60 * 60_000;

/**
 * Every copy the shop holds, one row each (ADR 0030). The house's copies: a raw card's stock as
 * numbered copies, and its copies set aside as prizes of a drop not drawn yet (stock that left
 * `cards.stock` but not the shop); a graded card's slabs by certificate — in stock, or reserved
 * for a drop — and a slab still waiting for its certificate by its id. Every collector's copy in a
 * vault (in the vault or listed on the market, which stays in the vault) by its id and, for a
 * slab, certificate. A copy in a shipment is on its way out and is not counted.
 */
const COPIES = sql`
  select ${cards.id}::text as card_id, 'stock:' || g.n as copy, null::text as owner_id
    from ${cards} cross join lateral generate_series(1, ${cards.stock}) as g(n)
    where ${cards.gradingCompany} is null and ${cards.stock} > 0
  union all
  select p.card_id::text, 'reserved:' || p.drop_id::text || ':' || g.n, null
    from ${dropPrizes} p
    join ${drops} d on d.id = p.drop_id and d.status in ('scheduled', 'open', 'drawing')
    join ${cards} c on c.id = p.card_id and c.grading_company is null
    cross join lateral generate_series(1, p.quantity) as g(n)
  union all
  select ${cardSlabs.cardId}::text,
      case when ${cardSlabs.certNumber} is null then 'slab:' || ${cardSlabs.id}::text
        else 'cert:' || ${cardSlabs.grader} || ':' || ${cardSlabs.certNumber} end,
      null
    from ${cardSlabs} where ${cardSlabs.state} in ('in_stock', 'reserved', 'held')
  union all
  select o.card_id::text, 'owned:' || o.id::text || coalesce(';cert:' || s.grader || ':' || s.cert_number, ''), o.owner_id
    from ${ownedCards} o left join ${cardSlabs} s on s.owned_card_id = o.id
    where o.status in ('in_vault', 'listed')`;

export interface SnapshotBuilt extends VaultSnapshotSummary {
  buildMs: number;
  /** Where the time went: reading and hashing the copies, sorting and the tree, writing. */
  phases: { readMs: number; treeMs: number; writeMs: number };
}

class Leaves {
  hashes = Buffer.allocUnsafe(32 * 65_536);
  n = 0;
  push(h: Buffer) {
    if ((this.n + 1) * 32 > this.hashes.length) {
      const bigger = Buffer.allocUnsafe(this.hashes.length * 2);
      this.hashes.copy(bigger, 0, 0, this.n * 32);
      this.hashes = bigger;
    }
    h.copy(this.hashes, this.n * 32);
    return this.n++;
  }
}

export const noKey = () =>
  new AppError(503, 'service_unavailable', 'Vault snapshots need VAULT_SIGNING_KEY (an Ed25519 key) in production; none is set.');

/**
 * Builds, signs and stores one snapshot. Reads every copy in one REPEATABLE READ, read-only
 * transaction (consistent totals; no row locks, so openings never wait) through a cursor, in
 * batches; hashes and sorts in memory (32 bytes a leaf); then writes the snapshot, its tree and
 * its holdings in one transaction under an advisory lock that numbers snapshots in order.
 */
export async function buildSnapshot(deps: Deps, opts: { trigger: 'schedule' | 'owner'; actor?: ActorCtx }): Promise<SnapshotBuilt> {
  const key = vaultKey(deps.config);
  if (!key) throw noKey();
  const started = performance.now();
  const leaves = new Leaves();
  const totals = new Map<string, [number, number]>();
  const holders = new Map<string, { commitment: Buffer; leaves: Array<[number, string, string]> }>();
  const house = commitmentOf(VAULT_HOUSE_HOLDER, holderSalt(deps.config, VAULT_HOUSE_HOLDER));
  const takenAt = await deps.db.transaction(
    async (tx) => {
      const [{ now }] = rowsOf<{ now: string | Date }>(await tx.execute(sql`select now() as now`)) as [{ now: string | Date }];
      await tx.execute(sql`declare vault_copies no scroll cursor for ${COPIES}`);
      for (;;) {
        const rows = rowsOf<{ card_id: string; copy: string; owner_id: string | null }>(
          await tx.execute(sql.raw(`fetch forward ${FETCH_ROWS} from vault_copies`)),
        );
        for (const r of rows) {
          let t = totals.get(r.card_id);
          if (!t) totals.set(r.card_id, (t = [0, 0]));
          if (r.owner_id === null) {
            t[0]++;
            leaves.push(leafHash(r.card_id, r.copy, house));
          } else {
            t[1]++;
            let h = holders.get(r.owner_id);
            if (!h) holders.set(r.owner_id, (h = { commitment: commitmentOf(r.owner_id, holderSalt(deps.config, r.owner_id)), leaves: [] }));
            // Position before sorting for now; mapped to the sorted index below.
            h.leaves.push([leaves.push(leafHash(r.card_id, r.copy, h.commitment)), r.card_id, r.copy]);
          }
        }
        if (rows.length < FETCH_ROWS) break;
      }
      return new Date(now);
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );

  const readMs = Math.round(performance.now() - started);
  const n = leaves.n;
  const order = sortOrder(leaves.hashes, n);
  const sorted = Buffer.allocUnsafe(n * 32);
  const rank = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    leaves.hashes.copy(sorted, k * 32, order[k]! * 32, order[k]! * 32 + 32);
    rank[order[k]!] = k;
  }
  leaves.hashes = Buffer.alloc(0);
  for (const h of holders.values()) for (const l of h.leaves) l[0] = rank[l[0]]!;
  const levels = buildLevels(sorted);
  const root = rootOf(levels).toString('hex');
  const totalList: VaultTotals = [...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, [s, v]]) => [id, s, v] as [string, number, number]);
  const stockCopies = totalList.reduce((a, t) => a + t[1], 0);
  const vaultCopies = n - stockCopies;
  const totalsText = JSON.stringify(totalList);

  const treeMs = Math.round(performance.now() - started) - readMs;
  const summary = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('packvault:vault-proof'), 0)`);
    const [last] = await tx.select({ seq: vaultSnapshots.seq, root: vaultSnapshots.root }).from(vaultSnapshots).orderBy(desc(vaultSnapshots.seq)).limit(1);
    const seq = (last?.seq ?? 0) + 1;
    const st: VaultStatement = {
      type: VAULT_STATEMENT_TYPE,
      snapshot: seq,
      takenAt: takenAt.toISOString(),
      previousRoot: last?.root ?? null,
      leafCount: n,
      root,
      cards: totalList.length,
      totalsSha256: createHash('sha256').update(totalsText, 'utf8').digest('hex'),
    };
    const statement = JSON.stringify(st);
    const buildMs = Math.round(performance.now() - started);
    await tx.insert(vaultSnapshots).values({
      seq,
      takenAt,
      trigger: opts.trigger,
      leafCount: n,
      stockCopies,
      vaultCopies,
      root,
      previousRoot: st.previousRoot,
      statement,
      totals: totalsText,
      signature: signStatement(key, statement),
      publicKey: key.publicKey,
      buildMs,
    });
    const chunkRows: Array<typeof vaultTreeChunks.$inferInsert> = [];
    const flushChunks = async () => {
      if (chunkRows.length) await tx.insert(vaultTreeChunks).values(chunkRows.splice(0));
    };
    for (const [level, buf] of levels.entries()) {
      const count = buf.length / 32;
      for (let c = 0; c * VAULT_CHUNK < count; c++) {
        chunkRows.push({ seq, level, chunk: c, hashes: buf.subarray(c * VAULT_CHUNK * 32, Math.min(count, (c + 1) * VAULT_CHUNK) * 32) });
        if (chunkRows.length === 16) await flushChunks();
      }
    }
    await flushChunks();
    let batch: Array<typeof vaultHoldings.$inferInsert> = [];
    let batchLeaves = 0;
    for (const [ownerId, h] of holders) {
      batch.push({ seq, ownerId, leaves: h.leaves });
      batchLeaves += h.leaves.length;
      if (batch.length >= 500 || batchLeaves >= 20_000) {
        await tx.insert(vaultHoldings).values(batch);
        batch = [];
        batchLeaves = 0;
      }
    }
    if (batch.length) await tx.insert(vaultHoldings).values(batch);
    if (opts.actor) {
      await audit(tx, {
        actorId: opts.actor.actorId,
        action: 'vault.snapshot',
        targetType: 'vault_snapshot',
        targetId: String(seq),
        after: { root, leafCount: n, stockCopies, vaultCopies },
        ip: opts.actor.ip,
      });
    }
    return { seq, takenAt: st.takenAt, root, previousRoot: st.previousRoot, leafCount: n, stockCopies, vaultCopies, trigger: opts.trigger, buildMs };
  });
  const buildMs = Math.round(performance.now() - started);
  deps.log.info('vault snapshot', { seq: summary.seq, leafCount: n, ms: buildMs, readMs, treeMs, writeMs: buildMs - readMs - treeMs, trigger: opts.trigger });
  return { ...summary, buildMs, phases: { readMs, treeMs, writeMs: buildMs - readMs - treeMs } };
}

/** The daily snapshot (ADR 0009 job). Without a signing key (production, unset) it logs and does nothing. */
export function vaultSnapshotJob(everyMs = VAULT_SNAPSHOT_EVERY_MS): Job {
  return {
    name: 'vault-snapshot',
    everyMs,
    async run(deps) {
      if (!vaultKey(deps.config)) {
        deps.log.error('vault snapshot skipped: VAULT_SIGNING_KEY is not set');
        return;
      }
      await buildSnapshot(deps, { trigger: 'schedule' });
    },
  };
}

export function keyInfo(deps: Deps): VaultKeyInfo {
  const key = vaultKey(deps.config);
  return { algorithm: 'Ed25519', publicKey: key?.publicKey ?? null, format: 'base64 of the 32 raw public-key bytes' };
}

const summaryCols = {
  seq: vaultSnapshots.seq,
  takenAt: vaultSnapshots.takenAt,
  root: vaultSnapshots.root,
  previousRoot: vaultSnapshots.previousRoot,
  leafCount: vaultSnapshots.leafCount,
  stockCopies: vaultSnapshots.stockCopies,
  vaultCopies: vaultSnapshots.vaultCopies,
  trigger: vaultSnapshots.trigger,
};

const toSummary = (r: { seq: number; takenAt: Date; root: string; previousRoot: string | null; leafCount: number; stockCopies: number; vaultCopies: number; trigger: string }): VaultSnapshotSummary => ({
  ...r,
  takenAt: r.takenAt.toISOString(),
  trigger: r.trigger === 'owner' ? 'owner' : 'schedule',
});

export async function listSnapshots(db: DbOrTx, page: number, pageSize: number): Promise<Paged<VaultSnapshotSummary>> {
  const [rows, [total]] = await Promise.all([
    db.select(summaryCols).from(vaultSnapshots).orderBy(desc(vaultSnapshots.seq)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ n: count() }).from(vaultSnapshots),
  ]);
  return paged(rows.map(toSummary), Number(total?.n ?? 0), page, pageSize);
}

async function snapshotRow(db: DbOrTx, seq: number | undefined) {
  const [row] = await db
    .select()
    .from(vaultSnapshots)
    .where(seq === undefined ? undefined : eq(vaultSnapshots.seq, seq))
    .orderBy(desc(vaultSnapshots.seq))
    .limit(1);
  if (!row) throw notFound(seq === undefined ? 'No vault snapshot has been taken yet.' : `There is no vault snapshot ${seq}.`);
  return row;
}

async function cardNames(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const part = ids.slice(i, i + 1000);
    for (const r of await db.select({ id: cards.id, name: cards.name }).from(cards).where(inArray(cards.id, part))) names.set(r.id, r.name);
  }
  return names;
}

export async function getSnapshot(db: DbOrTx, seq: number): Promise<VaultSnapshotDetail> {
  const row = await snapshotRow(db, seq);
  const totals = JSON.parse(row.totals) as VaultTotals;
  const names = await cardNames(db, totals.map((t) => t[0]));
  return {
    ...toSummary(row),
    statement: row.statement,
    signature: row.signature,
    publicKey: row.publicKey,
    totalsText: row.totals,
    totals: totals.map(([cardId, stock, vault]) => ({ cardId, cardName: names.get(cardId) ?? null, stock, vault })),
  };
}

/** Per card, what changed between two snapshots' signed totals (only the cards that changed). */
export async function diffSnapshots(db: DbOrTx, from: number, to: number): Promise<VaultDiff> {
  const [a, b] = await Promise.all([snapshotRow(db, from), snapshotRow(db, to)]);
  const ta = new Map((JSON.parse(a.totals) as VaultTotals).map(([id, s, v]) => [id, [s, v] as const]));
  const tb = new Map((JSON.parse(b.totals) as VaultTotals).map(([id, s, v]) => [id, [s, v] as const]));
  const ids = [...new Set([...ta.keys(), ...tb.keys()])].sort();
  const changed = ids.filter((id) => {
    const x = ta.get(id) ?? [0, 0];
    const y = tb.get(id) ?? [0, 0];
    return x[0] !== y[0] || x[1] !== y[1];
  });
  const names = await cardNames(db, changed);
  const changes = changed.map((cardId) => {
    const [stockBefore, vaultBefore] = ta.get(cardId) ?? [0, 0];
    const [stockAfter, vaultAfter] = tb.get(cardId) ?? [0, 0];
    return { cardId, cardName: names.get(cardId) ?? null, stockBefore, stockAfter, vaultBefore, vaultAfter };
  });
  return {
    from: toSummary(a),
    to: toSummary(b),
    changes,
    copiesBefore: a.leafCount,
    copiesAfter: b.leafCount,
  };
}

/** The stored hashes at the given [level, position]s of a snapshot's tree, keyed "level:position". */
async function treeHashes(db: DbOrTx, seq: number, at: Array<[number, number]>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unique = [...new Map(at.map((p) => [`${p[0]}:${p[1]}`, p])).values()];
  for (let i = 0; i < unique.length; i += 5000) {
    const part = unique.slice(i, i + 5000);
    const levels = `{${part.map((p) => p[0]).join(',')}}`;
    const positions = `{${part.map((p) => p[1]).join(',')}}`;
    const rows = rowsOf<{ level: number; pos: number; h: Uint8Array }>(
      await db.execute(sql`
        select x.level, x.pos, substring(t.hashes from (x.pos % ${VAULT_CHUNK}) * 32 + 1 for 32) as h
        from unnest(${levels}::int[], ${positions}::int[]) as x(level, pos)
        join ${vaultTreeChunks} t on t.seq = ${seq} and t.level = x.level and t.chunk = x.pos / ${VAULT_CHUNK}`),
    );
    for (const r of rows) out.set(`${r.level}:${r.pos}`, Buffer.from(r.h).toString('hex'));
  }
  return out;
}

/**
 * A collector's proof file for one snapshot (the latest by default): the signed statement, their
 * salt, and each of their leaves with its path. Only ever the asker's own leaves: the holdings
 * row is looked up by their id. `ownedCardId` narrows it to one copy (404 when that copy is not
 * theirs in the snapshot, whoever else's it is).
 */
export async function proofFor(deps: Deps, userId: string, opts: { seq?: number; ownedCardId?: string } = {}): Promise<VaultProofFile> {
  const { db } = deps;
  const [snap] = await db
    .select({ seq: vaultSnapshots.seq, leafCount: vaultSnapshots.leafCount, statement: vaultSnapshots.statement, signature: vaultSnapshots.signature, publicKey: vaultSnapshots.publicKey })
    .from(vaultSnapshots)
    .where(opts.seq === undefined ? undefined : eq(vaultSnapshots.seq, opts.seq))
    .orderBy(desc(vaultSnapshots.seq))
    .limit(1);
  if (!snap) throw notFound(opts.seq === undefined ? 'No vault snapshot has been taken yet.' : `There is no vault snapshot ${opts.seq}.`);
  // Proofs of an old snapshot are pruned (jobs/prune.ts); without this a pruned one would read as
  // "none of your copies were in it", which is false.
  if (snap.leafCount > 0) {
    const [kept] = await db
      .select({ seq: vaultTreeChunks.seq })
      .from(vaultTreeChunks)
      .where(and(eq(vaultTreeChunks.seq, snap.seq), eq(vaultTreeChunks.level, 0), eq(vaultTreeChunks.chunk, 0)));
    if (!kept) {
      const days = retentionOf(deps.config).vaultProofRetentionDays;
      throw new AppError(410, 'gone', `The proofs of vault snapshot ${snap.seq} are no longer kept (we keep them ${days} days; its signed root and totals stay published). Download a newer snapshot's proofs.`);
    }
  }
  const [holding] = await db
    .select({ leaves: vaultHoldings.leaves })
    .from(vaultHoldings)
    .where(and(eq(vaultHoldings.seq, snap.seq), eq(vaultHoldings.ownerId, userId)));
  let mine = holding?.leaves ?? [];
  if (opts.ownedCardId) {
    const id = opts.ownedCardId;
    mine = mine.filter(([, , copy]) => copy === `owned:${id}` || copy.startsWith(`owned:${id};`));
    if (mine.length === 0) throw notFound('That copy is not in your vault in this snapshot.');
  }
  const salt = holderSalt(deps.config, userId);
  const commitment = commitmentOf(userId, salt).toString('hex');
  const wanted: Array<[number, number]> = [];
  for (const [index] of mine) wanted.push([0, index], ...siblingPositions(index, snap.leafCount));
  const [hashes, names] = await Promise.all([treeHashes(db, snap.seq, wanted), cardNames(db, [...new Set(mine.map((l) => l[1]))])]);
  const leaves: VaultProofLeaf[] = mine.map(([index, cardId, copy]) => ({
    index,
    cardId,
    cardName: names.get(cardId),
    copy,
    commitment,
    leafHash: hashes.get(`0:${index}`) ?? '',
    path: siblingPositions(index, snap.leafCount).map(([l, p]) => hashes.get(`${l}:${p}`) ?? ''),
  }));
  return {
    format: VAULT_PROOF_FORMAT,
    statement: snap.statement,
    signature: snap.signature,
    publicKey: snap.publicKey,
    holder: { id: userId, salt: salt.toString('hex') },
    leaves,
  };
}

