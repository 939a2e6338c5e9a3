import { describe, expect, it } from 'vitest';
import { postgresTarget } from './client.ts';

describe('postgresTarget', () => {
  it('reads a Unix socket directory from ?host= as libpq does', () => {
    expect(postgresTarget('postgres://pv@localhost/shop?host=/var/run/postgresql')).toEqual({
      url: 'postgres://pv@localhost/shop',
      path: '/var/run/postgresql/.s.PGSQL.5432',
    });
    expect(postgresTarget('postgres://pv@localhost:6543/shop?host=/tmp&sslmode=disable').path).toBe('/tmp/.s.PGSQL.6543');
  });

  it('leaves TCP URLs alone', () => {
    expect(postgresTarget('postgres://pv@127.0.0.1:5432/shop')).toEqual({ url: 'postgres://pv@127.0.0.1:5432/shop' });
    expect(postgresTarget('postgres://pv@db/shop?host=db2').path).toBeUndefined();
  });
});
