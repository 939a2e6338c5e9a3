import { describe, expect, it } from 'vitest';
import { usernameSchema } from './contracts/account.ts';
import { isReservedName } from './reserved-names.ts';

describe('isReservedName (issue 39)', () => {
  it.each([
    'Packvault', 'packvault', 'PACKVAULT', 'support', 'Support', 'Staff', 'moderator', 'admin', 'packvault_support', 'Packvault-Support',
    'support_team', 'staff2', 'SupportTeam', 'PackvaultTeam', 'packvaultofficial', 'adm1n', '5upport', 'p4ckvault', 'the_admin', 'team-staff',
    'Packvault Support', 'owner', 'billing', 'Official',
  ])('%s is reserved', (name) => {
    expect(isReservedName(name)).toBe(true);
  });

  it.each(['badminton', 'staffordshire', 'Grootfan', 'collector_42', 'demo', 'u_abc123', 'Alice', 'vaultkeeper', 'supportive'])('%s is free', (name) => {
    expect(isReservedName(name)).toBe(false);
  });

  it('the shared username rule refuses them, with a message', () => {
    const r = usernameSchema.safeParse('packvault_support');
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toMatch(/kept for the shop/);
    expect(usernameSchema.safeParse('collector_42').success).toBe(true);
  });
});
