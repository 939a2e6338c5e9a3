import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AuditDiff, diffSnapshots, readableChanges } from './audit-diff';

afterEach(cleanup);

describe('diffSnapshots', () => {
  it('lists changed, added, removed and unchanged fields, flattening nested objects', () => {
    const changes = diffSnapshots(
      { banned: false, banReason: null, role: 'user', meta: { a: 1, b: 2 }, gone: 'x' },
      { banned: true, banReason: 'Spam', role: 'user', meta: { a: 1, b: 3 }, added: 5 },
    );
    const byKey = Object.fromEntries(changes.map((c) => [c.key, c.kind]));
    expect(byKey).toEqual({
      added: 'added',
      banReason: 'changed',
      banned: 'changed',
      gone: 'removed',
      'meta.a': 'same',
      'meta.b': 'changed',
      role: 'same',
    });
  });

  it('treats a missing side as empty and scalars as one value', () => {
    expect(diffSnapshots(null, { role: 'admin' })).toEqual([{ key: 'role', kind: 'added', after: 'admin' }]);
    expect(diffSnapshots({ role: 'admin' }, null)).toEqual([{ key: 'role', kind: 'removed', before: 'admin' }]);
    expect(diffSnapshots(1, 2)).toEqual([{ key: 'value', kind: 'changed', before: 1, after: 2 }]);
    expect(diffSnapshots(null, null)).toEqual([]);
  });
});

describe('AuditDiff', () => {
  it('shows changed fields and folds unchanged ones away', () => {
    render(<AuditDiff before={{ banned: false, role: 'user' }} after={{ banned: true, role: 'user' }} />);
    expect(screen.getByText('banned')).toBeTruthy();
    expect(screen.getByText('no')).toBeTruthy();
    expect(screen.getByText('yes')).toBeTruthy();
    expect(screen.getByText('1 unchanged field')).toBeTruthy();
  });

  it('says when nothing was recorded', () => {
    render(<AuditDiff before={null} after={null} />);
    expect(screen.getByText('No details recorded.')).toBeTruthy();
  });
});

describe('pack odds in the audit log', () => {
  const names = { 'c-rare': 'Rare', 'c-common': 'Common', 'k-1': 'Ember Drake' };
  const before = { slots: [{ odds: [{ classId: 'c-common', weight: 10_000 }] }, { odds: [{ classId: 'c-common', weight: 9_000 }, { classId: 'c-rare', weight: 1_000 }] }], pool: { mode: 'classes' } };
  const after = { slots: [{ odds: [{ classId: 'c-common', weight: 10_000 }] }, { odds: [{ classId: 'c-common', weight: 8_800 }, { classId: 'c-rare', weight: 1_200 }] }], pool: { mode: 'cards', cardIds: ['k-1'] } };

  it('reads as one change per slot and class, with class names and percentages', () => {
    const changed = readableChanges(before, after, names).filter((c) => c.kind !== 'same');
    expect(changed).toContainEqual({ key: 'Slot 2: Rare', kind: 'changed', before: '10%', after: '12%' });
    expect(changed).toContainEqual({ key: 'Slot 2: Common', kind: 'changed', before: '90%', after: '88%' });
    expect(changed.some((c) => c.key.startsWith('Slot 1'))).toBe(false);
  });

  it('shows names, not ids or raw JSON', () => {
    const { container } = render(<AuditDiff before={before} after={after} names={names} />);
    expect(screen.getByText('Slot 2: Rare')).toBeTruthy();
    expect(screen.getByText('12%')).toBeTruthy();
    expect(screen.getByText('Ember Drake')).toBeTruthy();
    expect(container.textContent).not.toMatch(/c-rare|classId|k-1/);
  });
});
