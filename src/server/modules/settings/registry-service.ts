import {
  SETTINGS,
  SETTING_AUDIT_ACTION,
  SETTING_KEYS,
  isSettingKey,
  type AdminSettings,
  type PublicSettings,
  type SettingEntry,
  type SettingKey,
} from '../../../shared/contracts/settings.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import type { Actor, ActorCtx } from '../../http/types.ts';
import { audit, listAudit } from '../audit/service.ts';
import { readSetting } from './service.ts';
import { processSettings, setting, writeRegistrySetting, type SettingsStore } from './store.ts';

function entry(store: SettingsStore, key: SettingKey): SettingEntry {
  const d = SETTINGS[key];
  return {
    key,
    value: store.get(key),
    default: d.default,
    label: d.label,
    help: d.help,
    group: d.group,
    ownerOnly: 'ownerOnly' in d && d.ownerOnly === true,
    ownerReason: ('ownerOnly' in d && d.ownerOnly === true && 'ownerReason' in d ? d.ownerReason : null) ?? null,
    public: 'public' in d && d.public === true,
    updatedAt: store.updatedAt(key)?.toISOString() ?? null,
  };
}

/** GET /api/admin/settings: every setting with its metadata, and the latest changes. */
export async function listSettings(deps: Pick<Deps, 'db'>, actor: Actor): Promise<AdminSettings> {
  const store = processSettings();
  await store.ready;
  const history = await listAudit(deps.db, { action: SETTING_AUDIT_ACTION, page: 1, pageSize: 25 });
  return { settings: SETTING_KEYS.map((k) => entry(store, k)), history: history.items, callerIsOwner: actor.role === 'owner' };
}

/**
 * PUT /api/admin/settings/{key}: validated by the key's schema; the write, its audit entry (before
 * and after) and its NOTIFY commit together, so a failed change leaves nothing behind.
 */
export async function updateSetting(
  deps: Pick<Deps, 'db' | 'bus'>,
  actor: Actor,
  ctx: ActorCtx,
  key: string,
  raw: unknown,
): Promise<SettingEntry> {
  if (!isSettingKey(key)) throw notFound(`There is no setting "${key}".`);
  const d = SETTINGS[key];
  if ('ownerOnly' in d && d.ownerOnly && actor.role !== 'owner') {
    throw new AppError(403, 'owner_role_required', `Only the owner can change “${d.label}”.`);
  }
  const r = d.schema.safeParse(raw);
  if (!r.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of r.error.issues) (fields[['value', ...issue.path].join('.')] ??= []).push(issue.message);
    throw badRequest(`“${d.label}” was not changed: check the highlighted fields.`, fields);
  }
  const value = r.data;
  await deps.db.transaction(async (tx) => {
    const stored = await readSetting(tx, key);
    const parsedBefore = stored === undefined ? null : d.schema.safeParse(stored);
    const before = parsedBefore?.success ? parsedBefore.data : d.default;
    await writeRegistrySetting(tx, key, value as never);
    await audit(tx, { actorId: ctx.actorId, action: SETTING_AUDIT_ACTION, targetType: 'app_setting', targetId: key, before: { value: before }, after: { value }, ip: ctx.ip });
  });
  return entry(processSettings(), key);
}

/** The settings anyone may see (GET /api/config). */
export function publicSettings(): PublicSettings {
  const s = setting('site.identity');
  return { siteName: s.siteName, supportEmail: s.supportEmail };
}
