/**
 * Builds `?a=1&b=2` for an API GET from defined, non-empty values: undefined, null and '' are left
 * out, so an unset filter is absent rather than sent empty. Arrays go as one comma-joined value
 * (`ids=a,b`), which is what the list endpoints split; other values go through String().
 */
export function qs(params: object): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    u.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = u.toString();
  return s ? `?${s}` : '';
}
