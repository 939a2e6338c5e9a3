import type { Deps } from '../../deps.ts';
import { notify, type NotifyData } from '../notifications/service.ts';

export type TellSecurity = (
  userId: string,
  event: NotifyData['security']['event'],
  ip?: string | null,
  userAgent?: string | null,
) => Promise<void>;

/** Security notices (always mailed) in their own small transaction; a failure is logged, never fails the sign-in. */
export function securityNotifier(deps: Deps): TellSecurity {
  return async (userId, event, ip, userAgent) => {
    await deps.db
      .transaction((tx) => notify(deps, tx, userId, 'security', { event, ip: ip ?? null, userAgent: userAgent ?? null }))
      .catch((err: unknown) => deps.log.error('security notification failed', { err, event }));
  };
}
