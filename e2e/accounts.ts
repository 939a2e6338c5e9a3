import path from 'node:path';

export const AUTH_DIR = path.join(import.meta.dirname, '.auth');
export const authFile = (name: string) => path.join(AUTH_DIR, `${name}.json`);

/** The demo accounts the seed creates (README lists them for local use). */
export const USER = { name: 'user', email: 'demo@packvault.test', password: 'demo-password-1', totpSecret: undefined };
export const ADMIN = {
  name: 'admin',
  email: 'admin@packvault.test',
  password: 'admin-password-1',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
};
