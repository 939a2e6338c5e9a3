import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/paths.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../shared/contracts/account.ts';

let common: Set<string> | null = null;

function commonPasswords(): Set<string> {
  if (!common) {
    const file = path.join(projectRoot, 'src', 'server', 'modules', 'auth', 'common-passwords.txt');
    common = new Set(
      readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim().toLowerCase())
        .filter((l) => l && !l.startsWith('#')),
    );
  }
  return common;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.trim().toLowerCase());
}

/** Null when acceptable, otherwise { code, message } in Better Auth's error style. */
export function passwordProblem(password: unknown): { code: string; message: string } | null {
  if (typeof password !== 'string' || password.length < PASSWORD_MIN) {
    return { code: 'PASSWORD_TOO_SHORT', message: `Use at least ${PASSWORD_MIN} characters.` };
  }
  if (password.length > PASSWORD_MAX) {
    return { code: 'PASSWORD_TOO_LONG', message: `Use at most ${PASSWORD_MAX} characters.` };
  }
  if (isCommonPassword(password)) {
    return {
      code: 'PASSWORD_COMPROMISED',
      message: 'This password is too common or appeared in a data breach. Choose another one.',
    };
  }
  return null;
}
