import { describe, expect, it } from 'vitest';
import { BACKUP_CODE_ALPHABET, matchBackupCode, newBackupCodes } from './backup-codes.ts';

describe('backup codes (issue 19: no l, I, 1, 0, O)', () => {
  it('uses only unambiguous characters, in two groups of five', () => {
    expect(BACKUP_CODE_ALPHABET).not.toMatch(/[01ILOU]/);
    expect(new Set(BACKUP_CODE_ALPHABET).size).toBe(BACKUP_CODE_ALPHABET.length);
    const codes = Array.from({ length: 50 }, () => newBackupCodes()).flat();
    const shape = new RegExp(`^[${BACKUP_CODE_ALPHABET}]{5}-[${BACKUP_CODE_ALPHABET}]{5}$`);
    for (const c of codes) expect(c).toMatch(shape);
    expect(new Set(codes).size).toBe(codes.length);
    expect(newBackupCodes()).toHaveLength(10);
  });

  it('matches what was typed with or without the dash, with spaces, in any case', () => {
    const stored = ['ABCDE-FGHJK', 'XYZ23-45678'];
    for (const typed of ['ABCDE-FGHJK', 'abcde-fghjk', 'abcdefghjk', ' AbCdE FgHjK ', 'ABCDEFGHJK']) expect(matchBackupCode(stored, typed)).toBe('ABCDE-FGHJK');
    expect(matchBackupCode(stored, 'ABCDE-FGHJ')).toBeNull();
    expect(matchBackupCode(stored, '')).toBeNull();
    expect(matchBackupCode(stored, ' - ')).toBeNull();
  });

  it('still accepts codes issued before the new alphabet, spelled as stored or in another case', () => {
    const legacy = ['aB3dE-fG5hJ'];
    expect(matchBackupCode(legacy, 'aB3dE-fG5hJ')).toBe('aB3dE-fG5hJ');
    expect(matchBackupCode(legacy, 'ab3defg5hj')).toBe('aB3dE-fG5hJ');
  });
});
