import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Invite } from '@shared/contracts/referrals';
import { api, ApiClientError } from '@web/lib/api';
import { useRealtimeEvent } from '@web/lib/realtime';

/** The visitor's and user's side of referrals (issue 17): /api/referrals/*. */


export const referralKeys = {
  all: ['referrals'] as const,
  invite: (code: string) => ['referrals', 'invite', code] as const,
  remembered: ['referrals', 'remembered'] as const,
  me: ['referrals', 'me'] as const,
};

/** A 4xx (unknown code, rate limited) will not change by asking again at once. */
const retryServerErrors = (n: number, err: unknown) => !(err instanceof ApiClientError && err.status >= 400 && err.status < 500) && n < 2;

/**
 * The invite page's read. The server also sets the first-party cookie that remembers the code
 * through sign-up; the page leaves a hint in this browser (below) so the sign-up page only asks
 * for the remembered invite when there may be one.
 */
export const inviteQuery = (code: string) =>
  queryOptions({
    queryKey: referralKeys.invite(code),
    queryFn: async ({ signal }) => {
      const invite = await api.get('/api/referrals/invite/{code}', { path: { code }, signal });
      rememberInviteHint();
      return invite;
    },
    retry: retryServerErrors,
    staleTime: 60_000,
    // Read again by the browser on every visit, also when the page came drawn by the server with
    // the invite in it: that read is what sets the cookie and the hint in this browser.
    refetchOnMount: 'always',
  });

/** The invite remembered by the cookie, or null (404: none, or it expired). */
export const rememberedInviteQuery = queryOptions({
  queryKey: referralKeys.remembered,
  queryFn: async ({ signal }): Promise<Invite | null> => {
    try {
      return await api.get('/api/referrals/remembered', { signal });
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 404) {
        forgetInviteHint();
        return null;
      }
      throw err;
    }
  },
  retry: retryServerErrors,
  staleTime: 60_000,
});

/**
 * The cookie is HttpOnly, so the page cannot see it: a hint in localStorage (set when an invite
 * page loaded, kept as long as the cookie) says whether asking is worth it. Without it the
 * sign-up page asks nothing, and nobody's sign-up page logs a 404.
 */
const HINT_KEY = 'pv_ref_hint';
const HINT_MS = 30 * 24 * 3_600_000;

function rememberInviteHint() {
  try {
    localStorage.setItem(HINT_KEY, String(Date.now() + HINT_MS));
  } catch {
    // Storage may be off (private mode): the sign-up page just shows no notice.
  }
}
function forgetInviteHint() {
  try {
    localStorage.removeItem(HINT_KEY);
  } catch {
    // ignore
  }
}
export function hasInviteHint(now = Date.now()): boolean {
  try {
    const until = Number(localStorage.getItem(HINT_KEY));
    return Number.isFinite(until) && until > now;
  } catch {
    return false;
  }
}

/** The sign-up page's notice: the remembered invite, asked only when this browser opened one. */
export function useRememberedInvite() {
  const enabled = typeof window !== 'undefined' && hasInviteHint();
  return useQuery({ ...rememberedInviteQuery, enabled });
}

export const myReferralsQuery = queryOptions({
  queryKey: referralKeys.me,
  queryFn: ({ signal }) => api.get('/api/referrals/me', { signal }),
});

/** The user's referral page, kept fresh: a friend qualifying credits the balance and notifies. */
export function useMyReferrals() {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: referralKeys.me });
  useRealtimeEvent('balance.changed', refresh);
  useRealtimeEvent('notification.created', refresh);
  useRealtimeEvent('reset', refresh);
  return useQuery(myReferralsQuery);
}

export function usePickVanity() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.put('/api/referrals/me/code', { body: { code } }),
    onSuccess: (r) => qc.setQueryData(referralKeys.me, r),
  });
}

export function useClaimCode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post('/api/referrals/claim', { body: { code } }),
    onSuccess: (r) => qc.setQueryData(referralKeys.me, r),
  });
}

/** An error's code as a plain string (referral codes may be newer than the shared list). */
export const codeOf = (err: unknown): string | null => (err instanceof ApiClientError ? String(err.code) : null);
