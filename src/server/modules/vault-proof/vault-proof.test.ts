import { createHash, createPublicKey, verify as edVerify } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { cards } from '../../db/schema/catalog.ts';
import { ownedCards } from '../../db/schema/inventory.ts';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { signInAdminWithMfa, signInAdminWithoutMfa, signUpAndSignIn, type TestUser } from '../../test/auth-helpers.ts';
import { checkVaultProof, type VaultProofFile, type VaultStatement } from '../../../shared/vault-proof.ts';
import { giveCards, makeCard, makeClass } from '../buyback/test-support.ts';
import { addSlabs } from '../inventory/slabs.ts';
import { dropInput } from '../drops/test-support.ts';
import { cardSlabs } from '../../db/schema/inventory.ts';
import { copyOfReserved, copyOfSlab, copyOfUncertifiedSlab, VAULT_HOUSE_HOLDER } from '../../../shared/vault-proof.ts';
import { holderSalt } from './keys.ts';
import { pruneAll } from '../../jobs/prune.ts';
import { buildSnapshot } from './service.ts';
import { commitmentOf, leafHash } from './tree.ts';

/**
 * Proof of the vault (issue 44 item 3): a snapshot of stock and two collectors' vaults; totals
 * equal the inventory; each collector's proof verifies against the published key and nobody
 * else's is reachable; tampering fails; only an owner takes one on demand.
 */

let t: TestContext;
let alice: TestUser;
let bob: TestUser;
let owner: TestUser;
const ids = { alice: [] as string[], bob: [] as string[], aliceShipped: '', graded: '', raw: '' };

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest();
const ed = (key: Uint8Array, sig: Uint8Array, msg: Uint8Array) =>
  edVerify(null, msg, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key).toString('base64url') }, format: 'jwk' }), sig);

beforeAll(async () => {
  t = await createTestContext();
  [alice, bob, owner] = await Promise.all([signUpAndSignIn(t), signUpAndSignIn(t), signInAdminWithMfa(t, { role: 'owner' })]);
  const cls = await makeClass(t);
  const a = await makeCard(t, { classId: cls.id, valueCents: 500, stock: 10 });
  const b = await makeCard(t, { classId: cls.id, valueCents: 900, stock: 5 });
  const g = await makeCard(t, { classId: cls.id, valueCents: 9000, stock: 0 });
  await t.deps.db.update(cards).set({ gradingCompany: 'PSA', grade: 10 }).where(eq(cards.id, g.id));
  const slab = (cert: string) => ({ grader: 'PSA' as const, grade: 10, certNumber: cert, frontPhotoKey: null, backPhotoKey: null });
  await t.deps.db.transaction((tx) => addSlabs(tx, g.id, [slab('72184530'), slab('72184531'), slab('72184532')], 'initial', { actorId: null }));
  ids.graded = g.id;
  ids.raw = a.id;
  ids.alice = [...(await giveCards(t, alice.userId, a.id, 3)), ...(await giveCards(t, alice.userId, g.id, 1))];
  ids.bob = [...(await giveCards(t, bob.userId, a.id, 1)), ...(await giveCards(t, bob.userId, b.id, 2))];
  // Out of the vault: not held by the shop any more. Listed on the market: still in the vault.
  ids.aliceShipped = ids.alice.shift()!;
  await t.deps.db.update(ownedCards).set({ status: 'shipped' }).where(eq(ownedCards.id, ids.aliceShipped));
  await t.deps.db.update(ownedCards).set({ status: 'listed' }).where(eq(ownedCards.id, ids.bob[2]!));
});
afterAll(() => t.close());

/**
 * What the inventory says, per card: the house's copies (a raw card's stock plus its prizes set
 * aside for drops not drawn yet; a graded card's slabs in stock, reserved or awaiting a
 * certificate) and copies in vaults. Written from the tables, not from the snapshot's query.
 */
async function inventory(): Promise<Map<string, [number, number]>> {
  const rows = rowsOf<{ id: string; stock: number; vault: number }>(
    await t.deps.db.execute(sql`
      select c.id::text as id,
        case when c.grading_company is null
          then c.stock + coalesce((select sum(p.quantity) from drop_prizes p join drops d on d.id = p.drop_id
                                   where p.card_id = c.id and d.status in ('scheduled', 'open', 'drawing')), 0)
          else (select count(*) from card_slabs s where s.card_id = c.id and s.state in ('in_stock', 'reserved', 'held')) end::int as stock,
        (select count(*) from owned_cards o where o.card_id = c.id and o.status in ('in_vault', 'listed'))::int as vault
      from cards c`),
  );
  return new Map(rows.filter((r) => r.stock + r.vault > 0).map((r) => [r.id, [r.stock, r.vault]]));
}

describe('taking a snapshot on demand', () => {
  it('is for an owner who passed two-factor only: 401, 403 for a user, a plain admin and an owner without MFA', async () => {
    const admin = await signInAdminWithMfa(t, { role: 'admin' });
    const ownerNoMfa = await signInAdminWithoutMfa(t, { role: 'owner' });
    expect((await t.request('/api/admin/vault/snapshots', { method: 'POST' })).status).toBe(401);
    const asUser = await t.request('/api/admin/vault/snapshots', { method: 'POST', headers: alice.headers });
    expect(asUser.status).toBe(403);
    const asAdmin = await t.request('/api/admin/vault/snapshots', { method: 'POST', headers: admin.headers });
    expect(asAdmin.status).toBe(403);
    expect(((await asAdmin.json()) as { error: { code: string } }).error.code).toBe('owner_role_required');
    const noMfa = await t.request('/api/admin/vault/snapshots', { method: 'POST', headers: ownerNoMfa.headers });
    expect(noMfa.status).toBe(403);
    expect(((await noMfa.json()) as { error: { code: string } }).error.code).toBe('mfa_required');
    expect((await t.request('/api/vault/snapshots')).status).toBe(200);
    expect(((await (await t.request('/api/vault/snapshots')).json()) as { total: number }).total).toBe(0);
  });

  it('before any snapshot, a proof request is a 404 that says so', async () => {
    const res = await t.request('/api/vault/proof', { headers: alice.headers });
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/No vault snapshot has been taken yet/);
  });

  it('an owner takes one: audited, totals equal the inventory, signed with the published key', async () => {
    const res = await t.request('/api/admin/vault/snapshots', { method: 'POST', headers: owner.headers });
    expect(res.status).toBe(201);
    const made = (await res.json()) as { seq: number; leafCount: number; stockCopies: number; vaultCopies: number; root: string };
    expect(made.seq).toBe(1);
    const inv = await inventory();
    const sum = [...inv.values()].reduce((a, [s, v]) => [a[0] + s, a[1] + v], [0, 0]);
    // 10+5 raw minus 3+1+2 given = 9; graded 3 slabs minus 1 = 2; vaults: alice 3 (one shipped), bob 3.
    expect(sum).toEqual([11, 6]);
    expect(made).toMatchObject({ leafCount: 17, stockCopies: 11, vaultCopies: 6 });

    const [row] = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'vault.snapshot'), eq(auditLog.targetId, '1')));
    expect(row).toMatchObject({ actorId: owner.userId, targetType: 'vault_snapshot' });

    const detail = (await (await t.request('/api/vault/snapshots/1')).json()) as { statement: string; signature: string; publicKey: string; totalsText: string; totals: Array<{ cardId: string; stock: number; vault: number }> };
    const st = JSON.parse(detail.statement) as VaultStatement;
    expect(st).toMatchObject({ snapshot: 1, root: made.root, leafCount: 17, previousRoot: null, cards: inv.size });
    // The signed totals: the statement signs their exact text by its hash.
    expect(createHash('sha256').update(detail.totalsText).digest('hex')).toBe(st.totalsSha256);
    expect(new Map((JSON.parse(detail.totalsText) as Array<[string, number, number]>).map(([id, s, v]) => [id, [s, v]]))).toEqual(inv);
    expect(new Map(detail.totals.map((x) => [x.cardId, [x.stock, x.vault]]))).toEqual(inv);

    const key = (await (await t.request('/api/vault/key')).json()) as { algorithm: string; publicKey: string };
    expect(key.algorithm).toBe('Ed25519');
    expect(key.publicKey).toBe(detail.publicKey);
    expect(ed(Buffer.from(key.publicKey, 'base64'), Buffer.from(detail.signature, 'base64'), Buffer.from(detail.statement))).toBe(true);
    expect(ed(Buffer.from(key.publicKey, 'base64'), Buffer.from(detail.signature, 'base64'), Buffer.from(detail.statement.replace('"snapshot":1', '"snapshot":2')))).toBe(false);
  });
});

describe('a collector’s proofs', () => {
  const proofOf = async (u: TestUser, path = '/api/vault/proof') => {
    const res = await t.request(path, { headers: u.headers });
    return { status: res.status, body: (await res.json()) as VaultProofFile };
  };
  const publicKey = async () => ((await (await t.request('/api/vault/key')).json()) as { publicKey: string }).publicKey;

  it('each user gets exactly their copies in the vault, and each proof verifies against the published key', async () => {
    for (const [u, mine] of [[alice, ids.alice], [bob, ids.bob]] as const) {
      const { status, body } = await proofOf(u);
      expect(status).toBe(200);
      expect(body.holder.id).toBe(u.userId);
      expect(body.leaves.map((l) => /^owned:([0-9a-f-]{36})/.exec(l.copy)![1]).sort()).toEqual([...mine].sort());
      const check = await checkVaultProof(body, await publicKey(), sha, ed);
      expect(check.problems).toEqual([]);
      expect(check.ok).toBe(true);
    }
    // Alice's slab names its certificate.
    const { body } = await proofOf(alice);
    expect(body.leaves.some((l) => /;cert:PSA:7218453\d$/.test(l.copy) && l.cardId === ids.graded)).toBe(true);
  });

  it('a tampered proof fails: a forged leaf, a truncated path, another user’s salt', async () => {
    const key = await publicKey();
    const { body } = await proofOf(alice);
    const forged = structuredClone(body);
    forged.leaves[0]!.copy = `owned:${ids.bob[0]}`;
    expect((await checkVaultProof(forged, key, sha, ed)).ok).toBe(false);
    const truncated = structuredClone(body);
    truncated.leaves[0]!.path.pop();
    expect((await checkVaultProof(truncated, key, sha, ed)).problems[0]).toMatch(/truncated or padded/);
    const stolen = structuredClone(body);
    stolen.holder.id = bob.userId;
    expect((await checkVaultProof(stolen, key, sha, ed)).problems[0]).toMatch(/holder commitment/);
  });

  it('one copy: 200 for your own, 404 for someone else’s or an unknown one, 401 signed out', async () => {
    const own = await proofOf(alice, `/api/vault/proof/copies/${ids.alice[0]}`);
    expect(own.status).toBe(200);
    expect(own.body.leaves).toHaveLength(1);
    expect((await checkVaultProof(own.body, await publicKey(), sha, ed)).ok).toBe(true);
    const theirs = await t.request(`/api/vault/proof/copies/${ids.bob[0]}`, { headers: alice.headers });
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain(bob.userId);
    expect((await t.request(`/api/vault/proof/copies/${ids.aliceShipped}`, { headers: alice.headers })).status).toBe(404);
    expect((await t.request('/api/vault/proof/copies/not-a-uuid', { headers: alice.headers })).status).toBe(404);
    expect((await t.request('/api/vault/proof')).status).toBe(401);
    expect((await t.request(`/api/vault/proof/copies/${ids.alice[0]}`)).status).toBe(401);
    expect((await t.request('/api/vault/proof?snapshot=99', { headers: alice.headers })).status).toBe(404);
    expect((await t.request('/api/vault/proof?snapshot=abc', { headers: alice.headers })).status).toBe(400);
  });
});

describe('the public record', () => {
  it('a second day shows the copy that left, chains to the first root, and nothing public names a holder', async () => {
    await t.deps.db.update(ownedCards).set({ status: 'shipped' }).where(eq(ownedCards.id, ids.bob[1]!));
    const second = await buildSnapshot(t.deps, { trigger: 'schedule' });
    expect(second).toMatchObject({ seq: 2, leafCount: 16, vaultCopies: 5 });
    const list = (await (await t.request('/api/vault/snapshots')).json()) as { items: Array<{ seq: number; root: string; previousRoot: string | null }>; total: number };
    expect(list.total).toBe(2);
    expect(list.items[0]!.previousRoot).toBe(list.items[1]!.root);
    const diffRes = await t.request('/api/vault/diff?fromSeq=1&toSeq=2');
    expect(diffRes.status).toBe(200);
    const diff = (await diffRes.json()) as { changes: Array<{ cardId: string; vaultBefore: number; vaultAfter: number; stockBefore: number; stockAfter: number }>; copiesBefore: number; copiesAfter: number };
    expect(diff).toMatchObject({ copiesBefore: 17, copiesAfter: 16 });
    expect(diff.changes).toHaveLength(1);
    expect(diff.changes[0]).toMatchObject({ vaultBefore: 2, vaultAfter: 1, stockBefore: 3, stockAfter: 3 });
    // Bob's proof for day 2 no longer holds the shipped copy; day 1's still does.
    const day2 = (await (await t.request('/api/vault/proof', { headers: bob.headers })).json()) as VaultProofFile;
    expect(day2.leaves.map((l) => l.copy).join()).not.toContain(ids.bob[1]);
    const day1 = (await (await t.request('/api/vault/proof?snapshot=1', { headers: bob.headers })).json()) as VaultProofFile;
    expect(day1.leaves.map((l) => l.copy).join()).toContain(ids.bob[1]);

    const pub = [
      await (await t.request('/api/vault/snapshots')).text(),
      await (await t.request('/api/vault/snapshots/1')).text(),
      await (await t.request('/api/vault/snapshots/2')).text(),
      await (await t.request('/api/vault/diff?fromSeq=1&toSeq=2')).text(),
      await (await t.request('/api/vault/key')).text(),
    ].join('\n');
    for (const secret of [alice.userId, bob.userId, ...ids.alice, ...ids.bob, '"leaves"', 'salt']) expect(pub).not.toContain(secret);
  });

  it('bad queries: 400 for a malformed diff, 404 for an unknown snapshot', async () => {
    expect((await t.request('/api/vault/diff?fromSeq=1')).status).toBe(400);
    expect((await t.request('/api/vault/diff?fromSeq=1&toSeq=9')).status).toBe(404);
    expect((await t.request('/api/vault/snapshots/9')).status).toBe(404);
    expect((await t.request('/api/vault/snapshots/0')).status).toBe(404);
  });

  it('is append-only: a published snapshot cannot be changed or deleted', async () => {
    await expect(t.deps.db.execute(sql`update vault_snapshots set root = 'x' where seq = 1`)).rejects.toThrow();
    await expect(t.deps.db.execute(sql`delete from vault_snapshots where seq = 1`)).rejects.toThrow();
  });

  it('a deleted account’s holdings go with it (nothing links the leaves to anyone)', async () => {
    const { vaultHoldings } = await import('../../db/schema/vault-proof.ts');
    const { vaultProofPersonalData } = await import('./personal-data.ts');
    const exported = await vaultProofPersonalData.export(t.deps.db, { id: alice.userId, email: alice.email, username: alice.username, name: alice.username });
    expect((exported.snapshots as unknown[]).length).toBe(2);
    await t.deps.db.transaction((tx) => vaultProofPersonalData.erase(tx, { id: alice.userId, email: alice.email, username: alice.username, name: alice.username }));
    expect(await t.deps.db.select().from(vaultHoldings).where(inArray(vaultHoldings.ownerId, [alice.userId]))).toEqual([]);
  });
});

describe('copies the house holds outside its stock', () => {
  it('drop prizes set aside and a slab awaiting its certificate are in the snapshot, and the totals still equal the inventory', async () => {
    // A drop not drawn yet holds two raw copies and one slab out of stock.
    const made = await t.request('/api/admin/drops', {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify(dropInput(ids.raw, { winnerCount: 3, prizes: [{ cardId: ids.raw, quantity: 2 }, { cardId: ids.graded, quantity: 1 }] })),
    });
    expect(made.status, await made.clone().text()).toBe(201);
    const { drop } = (await made.json()) as { drop: { id: string } };
    const [reservedSlab] = await t.deps.db.select().from(cardSlabs).where(and(eq(cardSlabs.cardId, ids.graded), eq(cardSlabs.state, 'reserved')));
    expect(reservedSlab?.certNumber).toBeTruthy();
    // A slab whose certificate is not known yet: physically here, out of stock until it is filled in.
    const [held] = await t.deps.db
      .insert(cardSlabs)
      .values({ cardId: ids.graded, grader: 'PSA', grade: 10, certNumber: null, certMissing: true, state: 'held' })
      .returning({ id: cardSlabs.id });

    const snap = await buildSnapshot(t.deps, { trigger: 'schedule' });
    const inv = await inventory();
    const sum = [...inv.values()].reduce((a, [s, v]) => [a[0] + s, a[1] + v], [0, 0]);
    expect(snap).toMatchObject({ stockCopies: sum[0], vaultCopies: sum[1], leafCount: sum[0] + sum[1] });
    const detail = (await (await t.request(`/api/vault/snapshots/${snap.seq}`)).json()) as { totalsText: string };
    expect(new Map((JSON.parse(detail.totalsText) as Array<[string, number, number]>).map(([id, s, v]) => [id, [s, v]]))).toEqual(inv);

    // Each of those copies is a leaf of the house, under the name fairness.md gives it.
    const level0 = rowsOf<{ hashes: Uint8Array }>(await t.deps.db.execute(sql`select hashes from vault_tree_chunks where seq = ${snap.seq} and level = 0 order by chunk`));
    const leaves = new Set<string>();
    for (const r of level0) for (let i = 0; i < r.hashes.length; i += 32) leaves.add(Buffer.from(r.hashes.subarray(i, i + 32)).toString('hex'));
    const house = commitmentOf(VAULT_HOUSE_HOLDER, holderSalt(t.deps.config, VAULT_HOUSE_HOLDER));
    const leaf = (cardId: string, copy: string) => leafHash(cardId, copy, house).toString('hex');
    expect(leaves.has(leaf(ids.raw, copyOfReserved(drop.id, 1)))).toBe(true);
    expect(leaves.has(leaf(ids.raw, copyOfReserved(drop.id, 2)))).toBe(true);
    expect(leaves.has(leaf(ids.raw, copyOfReserved(drop.id, 3)))).toBe(false);
    expect(leaves.has(leaf(ids.graded, copyOfSlab('PSA', reservedSlab!.certNumber!)))).toBe(true);
    expect(leaves.has(leaf(ids.graded, copyOfUncertifiedSlab(held!.id)))).toBe(true);
  });
});

describe('old proofs', () => {
  it('are pruned past the retention: the signed statement and totals stay, the latest tree stays, and a proof of a pruned snapshot is a 410 that says why', async () => {
    const seqs = rowsOf<{ seq: number }>(await t.deps.db.execute(sql`select seq from vault_snapshots order by seq`)).map((r) => r.seq);
    const newest = Math.max(...seqs);
    expect(seqs.length).toBeGreaterThan(1);
    // Every snapshot ages past the 90 days (the table's append-only trigger is lifted for the set-up only).
    await t.deps.db.execute(sql`alter table vault_snapshots disable trigger user`);
    await t.deps.db.execute(sql`update vault_snapshots set taken_at = taken_at - interval '200 days'`);
    await t.deps.db.execute(sql`alter table vault_snapshots enable trigger user`);
    const results = await pruneAll(t.deps);
    expect(results.find((r) => r.table === 'vault_tree_chunks')?.deleted).toBeGreaterThan(0);
    expect(results.find((r) => r.table === 'vault_holdings')?.deleted).toBeGreaterThan(0);
    const left = rowsOf<{ seq: number }>(await t.deps.db.execute(sql`select distinct seq from vault_tree_chunks union select distinct seq from vault_holdings`));
    expect(left.map((r) => r.seq)).toEqual([newest]);
    expect(rowsOf(await t.deps.db.execute(sql`select seq from vault_snapshots`))).toHaveLength(seqs.length);

    const old = await t.request('/api/vault/proof?snapshot=1', { headers: bob.headers });
    expect(old.status).toBe(410);
    expect(((await old.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'gone', message: expect.stringMatching(/no longer kept .* 90 days/) });
    expect((await t.request('/api/vault/snapshots/1')).status).toBe(200);
    expect((await t.request(`/api/vault/diff?fromSeq=1&toSeq=${newest}`)).status).toBe(200);
    const now = await t.request('/api/vault/proof', { headers: bob.headers });
    expect(now.status).toBe(200);
    expect(((await now.json()) as VaultProofFile).leaves.length).toBeGreaterThan(0);
  });
});

