import { createRoute } from '@hono/zod-openapi';
import {
  vaultDiffQuerySchema,
  vaultDiffSchema,
  vaultKeyInfoSchema,
  vaultProofFileSchema,
  vaultProofQuerySchema,
  vaultSeqParamSchema,
  vaultSnapshotDetailSchema,
  vaultSnapshotListQuerySchema,
  vaultSnapshotListSchema,
  vaultSnapshotSummarySchema,
} from '../../../shared/contracts/vault-proof.ts';
import type { Deps } from '../../deps.ts';
import { actorCtx, actorOf, requireAdmin, requireOwner, requireUser } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { buildSnapshot, diffSnapshots, getSnapshot, keyInfo, listSnapshots, proofFor } from './service.ts';

/**
 * Proof of the vault (issue 44, ADR 0030). Public: the signing key, the signed snapshots with
 * their totals per card, and the difference between two. A collector: the proofs of their own
 * copies only. The owner: a snapshot on demand (audited).
 */
export function vaultProofRoutes(deps: Deps) {
  const app = createRouter();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/vault/key',
      tags: ['vault-proof'],
      summary: 'The Ed25519 public key that signs vault snapshots',
      responses: { 200: jsonContent(vaultKeyInfoSchema, 'Key') },
    }),
    async (c) => {
      c.header('Cache-Control', 'public, max-age=300');
      return c.json(keyInfo(deps), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/vault/snapshots',
      tags: ['vault-proof'],
      summary: 'Signed vault snapshots, newest first (roots and copy counts; never whose copies are whose)',
      request: { query: vaultSnapshotListQuerySchema },
      responses: { 200: jsonContent(vaultSnapshotListSchema, 'Snapshots'), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await listSnapshots(db, q.page, q.pageSize), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/vault/snapshots/{seq}',
      tags: ['vault-proof'],
      summary: 'One snapshot: its signed statement, signature and totals per card',
      request: { params: vaultSeqParamSchema },
      responses: { 200: jsonContent(vaultSnapshotDetailSchema, 'Snapshot'), ...errorResponses },
    }),
    async (c) => {
      // A snapshot never changes once written.
      c.header('Cache-Control', 'public, max-age=3600');
      return c.json(await getSnapshot(db, c.req.valid('param').seq), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/vault/diff',
      tags: ['vault-proof'],
      summary: 'Per card, how the signed totals changed between two snapshots',
      request: { query: vaultDiffQuerySchema },
      responses: { 200: jsonContent(vaultDiffSchema, 'Difference'), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await diffSnapshots(db, q.fromSeq, q.toSeq), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/vault/proof',
      tags: ['vault-proof'],
      summary: 'Your inclusion proofs: every copy of yours in a snapshot (the latest by default), with your salt',
      middleware: [requireUser] as const,
      request: { query: vaultProofQuerySchema },
      responses: { 200: jsonContent(vaultProofFileSchema, 'Proof file'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'private, no-store');
      return c.json(await proofFor(deps, actorOf(c).userId, { seq: c.req.valid('query').snapshot }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/vault/proof/copies/{ownedCardId}',
      tags: ['vault-proof'],
      summary: 'The inclusion proof of one of your copies (404 for a copy that is not yours)',
      middleware: [requireUser] as const,
      request: { params: z.object({ ownedCardId: z.string().uuid('Not a valid id.') }), query: vaultProofQuerySchema },
      responses: { 200: jsonContent(vaultProofFileSchema, 'Proof file'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'private, no-store');
      const seq = c.req.valid('query').snapshot;
      return c.json(await proofFor(deps, actorOf(c).userId, { seq, ownedCardId: c.req.valid('param').ownedCardId }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/vault/snapshots',
      tags: ['vault-proof'],
      summary: 'Owner: take and sign a vault snapshot now (audited)',
      middleware: [requireAdmin, requireOwner] as const,
      responses: { 201: jsonContent(vaultSnapshotSummarySchema.extend({ buildMs: z.number().int() }), 'Snapshot taken'), ...errorResponses },
    }),
    async (c) => c.json(await buildSnapshot(deps, { trigger: 'owner', actor: actorCtx(c, deps.config.trustProxy) }), 201),
  );

  return app;
}
