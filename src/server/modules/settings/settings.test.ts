import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuybackQuote } from '../../../shared/contracts/collection.ts';
import {
  SETTINGS,
  SETTING_AUDIT_ACTION,
  SETTING_KEYS,
  buybackDefaultRateSchema,
  depositLimitsSchema,
  type AdminSettings,
  type SettingEntry,
} from '../../../shared/contracts/settings.ts';
import { shippingSettingsSchema } from '../../../shared/contracts/shipping.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { appSettings } from '../../db/schema/settings.ts';
import { createLogger } from '../../lib/logger.ts';
import { giveCards, makeCard, makeClass } from '../buyback/test-support.ts';
import { idem, moneyTestContext, type MoneyTestContext } from '../wallet/test-support.ts';
import { createSettingsStore, processSettings, setting, writeRegistrySetting } from './store.ts';

/** Issue 18 item 3: settings in one place — registry bounds, the admin API, the cache, the consumers. */

let t: MoneyTestContext;
beforeAll(async () => {
  t = await moneyTestContext();
});
afterAll(() => t.close());

const put = (actor: string | null, key: string, value: unknown) => t.as(actor).put(`/api/admin/settings/${key}`, { value });
const storedValue = async (key: string) => (await t.deps.db.select().from(appSettings).where(eq(appSettings.key, key)))[0]?.value;
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; fields?: Record<string, string[]> } }).error;

describe('the registry', () => {
  it('every default passes its own schema', () => {
    for (const k of SETTING_KEYS) expect(SETTINGS[k].schema.safeParse(SETTINGS[k].default).success, k).toBe(true);
  });

  it('a rate is 0..10000 basis points, whole; anything else is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), (n) => {
        expect(buybackDefaultRateSchema.safeParse(n).success).toBe(n >= 0 && n <= 10_000);
      }),
    );
    expect(buybackDefaultRateSchema.safeParse(10_001).error?.issues[0]?.message).toMatch(/above 100%/);
    expect(buybackDefaultRateSchema.safeParse(85.5).success).toBe(false);
  });

  it('a fee is never negative; a deposit range never upside down or under 50 cents', () => {
    const base = SETTINGS['shipping.settings'].default;
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), (fee) => {
        expect(shippingSettingsSchema.safeParse({ ...base, baseFeeCents: fee }).success).toBe(fee >= 0 && fee <= 1_000_000);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 200_000_000 }), fc.integer({ min: -1000, max: 200_000_000 }), (minCents, maxCents) => {
        const ok = minCents >= 50 && minCents <= 10_000_000 && maxCents >= 50 && maxCents <= 100_000_000 && maxCents >= minCents;
        expect(depositLimitsSchema.safeParse({ minCents, maxCents }).success).toBe(ok);
      }),
    );
  });
});

describe('GET/PUT /api/admin/settings', () => {
  it('signed out 401, a user 403, an admin without two-factor 403; nothing changes', async () => {
    const u = await t.makeUser();
    const noMfa = await t.makeUser({ role: 'admin', mfa: false });
    expect((await t.as(null).get('/api/admin/settings')).status).toBe(401);
    expect((await put(null, 'buyback.defaultRateBp', 5000)).status).toBe(401);
    expect((await t.as(u).get('/api/admin/settings')).status).toBe(403);
    expect((await put(u, 'buyback.defaultRateBp', 5000)).status).toBe(403);
    const res = await put(noMfa, 'buyback.defaultRateBp', 5000);
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('mfa_required');
    expect(await storedValue('buyback.defaultRateBp')).toBeUndefined();
  });

  it('lists every key with its metadata and current value', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const res = await t.as(admin).get('/api/admin/settings');
    expect(res.status).toBe(200);
    const body = (await res.json()) as AdminSettings;
    expect(body.settings.map((s) => s.key).sort()).toEqual([...SETTING_KEYS].sort());
    const rate = body.settings.find((s) => s.key === 'buyback.defaultRateBp')!;
    expect(rate).toMatchObject({ value: 8500, default: 8500, group: 'Shop', ownerOnly: true, ownerReason: expect.stringMatching(/money/) });
    const pulls = body.settings.find((s) => s.key === 'pulls.thresholds')!;
    expect(pulls).toMatchObject({ ownerOnly: false, ownerReason: null });
    expect(body.callerIsOwner).toBe(false);
  });

  it('an unknown key is 404; a bad value is 400 with field messages and changes nothing', async () => {
    const admin = await t.makeUser({ role: 'owner' });
    expect((await put(admin, 'no.such.key', 1)).status).toBe(404);

    const high = await put(admin, 'buyback.defaultRateBp', 10_001);
    expect(high.status).toBe(400);
    expect((await errorOf(high)).fields).toEqual({ value: [expect.stringMatching(/above 100%/)] });

    const fee = await put(admin, 'shipping.settings', { ...SETTINGS['shipping.settings'].default, baseFeeCents: -1 });
    expect(fee.status).toBe(400);
    expect((await errorOf(fee)).fields).toEqual({ 'value.baseFeeCents': [expect.stringMatching(/cannot be negative/)] });

    const range = await put(admin, 'payments.depositLimits', { minCents: 5000, maxCents: 1000 });
    expect((await errorOf(range)).fields).toHaveProperty(['value.maxCents']);

    const email = await put(admin, 'site.identity', { siteName: 'X', supportEmail: 'not an email' });
    expect((await errorOf(email)).fields).toHaveProperty(['value.supportEmail']);

    for (const k of ['buyback.defaultRateBp', 'shipping.settings', 'payments.depositLimits', 'site.identity']) {
      expect(await storedValue(k), k).toBeUndefined();
    }
    expect(await t.deps.db.select().from(auditLog).where(eq(auditLog.action, SETTING_AUDIT_ACTION))).toEqual([]);
  });

  it('the admin adjustment limits need the owner', async () => {
    const admin = await t.makeUser({ role: 'admin' });
    const res = await put(admin, 'wallet.adjustLimits', { singleLimitCents: 100, dailyLimitCents: 200 });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('owner_role_required');
    expect(await storedValue('wallet.adjustLimits')).toBeUndefined();
  });

  it('every setting that creates or moves money, and the site identity, is the owner’s: an admin is refused and audited (ADR 0024)', async () => {
    const ownerOnly = SETTING_KEYS.filter((k) => 'ownerOnly' in SETTINGS[k] && SETTINGS[k].ownerOnly);
    for (const k of ['site.identity', 'buyback.defaultRateBp', 'payments.depositLimits', 'shipping.settings', 'referrals.settings', 'wallet.adjustLimits', 'catalog.valueLimits', 'promo.limits', 'shop.returnLimits']) {
      expect(ownerOnly, k).toContain(k);
    }
    const admin = await t.makeUser({ role: 'admin' });
    for (const k of ownerOnly) {
      const res = await put(admin, k, SETTINGS[k].default);
      expect(res.status, k).toBe(403);
      expect((await errorOf(res)).code, k).toBe('owner_role_required');
      expect(await storedValue(k), k).toBeUndefined();
    }
    const refused = await t.deps.db.select().from(auditLog).where(and(eq(auditLog.actorId, admin), eq(auditLog.action, `${SETTING_AUDIT_ACTION}.refused`)));
    expect(refused.map((r) => r.targetId).sort()).toEqual([...ownerOnly].sort());
    // The one any admin tunes: what counts as a big pull (no money moves by it).
    expect((await put(admin, 'pulls.thresholds', SETTINGS['pulls.thresholds'].default)).status).toBe(200);
  });

  it('a change is stored, cached, audited with before and after, and listed in the history', async () => {
    const owner = await t.makeUser({ role: 'owner' });
    const res = await put(owner, 'referrals.settings', { ...SETTINGS['referrals.settings'].default, referrerRewardCents: 750 });
    expect(res.status).toBe(200);
    expect(((await res.json()) as SettingEntry).value).toMatchObject({ referrerRewardCents: 750 });
    expect(await storedValue('referrals.settings')).toMatchObject({ referrerRewardCents: 750 });
    expect(setting('referrals.settings').referrerRewardCents).toBe(750);
    const [row] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, SETTING_AUDIT_ACTION), eq(auditLog.targetId, 'referrals.settings')));
    expect(row).toMatchObject({
      actorId: owner,
      targetType: 'app_setting',
      before: { value: { referrerRewardCents: 500 } },
      after: { value: { referrerRewardCents: 750 } },
    });
    const list = (await (await t.as(owner).get('/api/admin/settings')).json()) as AdminSettings;
    expect(list.history[0]).toMatchObject({ targetId: 'referrals.settings', after: { value: { referrerRewardCents: 750 } } });
    // The referral module's own endpoint reads the same value.
    expect(await (await t.as(owner).get('/api/admin/referrals/settings')).json()).toMatchObject({ referrerRewardCents: 750 });
    expect((await put(owner, 'referrals.settings', SETTINGS['referrals.settings'].default)).status).toBe(200);
  });
});

describe('the cache', () => {
  it('another store (another process) picks a change up from the bus, and hears nothing of a rolled-back one', async () => {
    // Two stores on one database and bus: on PostgreSQL the event goes through LISTEN/NOTIFY; on
    // PGlite the bus is in-process (as it is in production there: one process).
    const other = createSettingsStore({ db: t.deps.db, bus: t.deps.bus, log: createLogger('silent') }, { refreshMs: 3_600_000 });
    await other.ready;
    try {
      expect(other.get('pulls.thresholds').topPullMinCents).toBe(500);
      await expect(
        t.deps.db.transaction(async (tx) => {
          await writeRegistrySetting(tx, 'pulls.thresholds', { topPullMinCents: 777, notificationDefaultCents: 5000 });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await new Promise((r) => setTimeout(r, 100));
      expect(other.get('pulls.thresholds').topPullMinCents).toBe(500);

      const admin = await t.makeUser({ role: 'admin' });
      expect((await put(admin, 'pulls.thresholds', { topPullMinCents: 1234, notificationDefaultCents: 6000 })).status).toBe(200);
      await expect.poll(() => other.get('pulls.thresholds').topPullMinCents, { timeout: 5_000 }).toBe(1234);
      expect(setting('pulls.thresholds').notificationDefaultCents).toBe(6000);
      // A player who never chose a threshold gets the new default, and the preferences page says which.
      const player = await t.makeUser();
      const prefs = (await (await t.as(player).get('/api/notifications/preferences')).json()) as { bigPullThresholdCents: number; defaultBigPullThresholdCents: number };
      expect(prefs).toMatchObject({ bigPullThresholdCents: 6000, defaultBigPullThresholdCents: 6000 });

      // The safety net: a value written behind the cache's back shows after the next full re-read.
      await t.deps.db.update(appSettings).set({ value: { topPullMinCents: 500, notificationDefaultCents: 5000 } }).where(eq(appSettings.key, 'pulls.thresholds'));
      await other.load();
      expect(other.get('pulls.thresholds')).toEqual({ topPullMinCents: 500, notificationDefaultCents: 5000 });
      await processSettings().load();
    } finally {
      other.close();
    }
  });

  it('a stored value that no longer validates falls back to the default', async () => {
    await t.deps.db.insert(appSettings).values({ key: 'site.identity', value: { siteName: '' } });
    await processSettings().reload('site.identity');
    expect(setting('site.identity')).toEqual(SETTINGS['site.identity'].default);
    await t.deps.db.delete(appSettings).where(eq(appSettings.key, 'site.identity'));
    await processSettings().reload('site.identity');
  });
});

describe('consumers honour the moved values', () => {
  it('the buyback quote follows the default rate set through the settings API', async () => {
    const admin = await t.makeUser({ role: 'owner' });
    const u = await t.makeUser();
    const cls = await makeClass(t);
    const card = await makeCard(t, { classId: cls.id, valueCents: 1000 });
    const [o] = await giveCards(t, u, card.id);
    const quote = async () => (await (await t.as(u).post('/api/buyback/quote', { ownedCardIds: [o] })).json()) as BuybackQuote;
    expect((await quote()).totalCents).toBe(850);
    expect((await put(admin, 'buyback.defaultRateBp', 6000)).status).toBe(200);
    expect(await quote()).toMatchObject({ defaultRateBp: 6000, totalCents: 600 });
    expect((await put(admin, 'buyback.defaultRateBp', 8500)).status).toBe(200);
  });

  it('a deposit under the new minimum is refused, and the deposit options show the new limits', async () => {
    const admin = await t.makeUser({ role: 'owner' });
    const u = await t.makeUser();
    expect((await put(admin, 'payments.depositLimits', { minCents: 2000, maxCents: 50_000 })).status).toBe(200);
    const refused = await t.as(u).post('/api/wallet/deposits', { amountCents: 1500 }, idem());
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).fields?.amountCents?.[0]).toMatch(/\$20\.00/);
    expect(await (await t.as(u).get('/api/wallet/deposit-options')).json()).toMatchObject({ minCents: 2000, maxCents: 50_000 });
    expect((await t.as(u).post('/api/wallet/deposits', { amountCents: 2000 }, idem())).status).toBe(201);
    expect((await put(admin, 'payments.depositLimits', SETTINGS['payments.depositLimits'].default)).status).toBe(200);
  });

  it('the site name and support email reach the public config', async () => {
    const admin = await t.makeUser({ role: 'owner' });
    expect((await put(admin, 'site.identity', { siteName: 'Card Cove', supportEmail: 'help@cardcove.test' })).status).toBe(200);
    expect(await (await t.request('/api/config')).json()).toMatchObject({ siteName: 'Card Cove', supportEmail: 'help@cardcove.test' });
    expect((await put(admin, 'site.identity', SETTINGS['site.identity'].default)).status).toBe(200);
  });

  it('the shipping options follow the fees set through the settings API', async () => {
    const admin = await t.makeUser({ role: 'owner' });
    const u = await t.makeUser();
    const next = { ...SETTINGS['shipping.settings'].default, baseFeeCents: 999, countries: ['US'] };
    expect((await put(admin, 'shipping.settings', next)).status).toBe(200);
    expect(await (await t.as(u).get('/api/shipping/options')).json()).toMatchObject({ baseFeeCents: 999, countryOptions: [{ code: 'US' }] });
    expect((await put(admin, 'shipping.settings', SETTINGS['shipping.settings'].default)).status).toBe(200);
  });
});
