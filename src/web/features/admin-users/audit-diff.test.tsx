import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AuditDiff, diffSnapshots } from './audit-diff';

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
