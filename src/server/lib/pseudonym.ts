// Below the modules: the audit log's erase step and the account's both name a deleted person
// this way, and audit sits below auth (issue 42, docs/architecture.md "Layers").

/** What a deleted account's user row shows instead of the person. */
export function pseudonymOf(userId: string): { email: string; username: string; name: string } {
  const tag = userId.slice(0, 12).toLowerCase().replace(/[^a-z0-9]/g, 'x');
  return { email: `deleted-${userId.toLowerCase()}@deleted.invalid`, username: `deleted-${tag}`.slice(0, 20), name: 'Deleted user' };
}
