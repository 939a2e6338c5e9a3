import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyServerTests } from './test-projects.ts';

function tree(files: Record<string, string>) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'packvault-projects-'));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), body);
  }
  return root;
}

describe('which server tests need a database', () => {
  it('follows static, dynamic and type-only imports, through cycles, to the harness', () => {
    const root = tree({
      'src/server/test/harness.ts': 'export const createTestContext = 1;',
      'src/server/db/migration-test-support.ts': 'export const x = 1;',
      'src/server/a/support.ts': "import { createTestContext } from '../test/harness.ts';\nexport { createTestContext };",
      'src/server/a/cycle-1.ts': "import { y } from './cycle-2';\nexport const x = y;",
      'src/server/a/cycle-2.ts': "import { x } from './cycle-1';\nexport const y = x;",
      'src/server/a/static.test.ts': "import { createTestContext } from './support.ts';",
      'src/server/a/dynamic.test.ts': "const m = await import('./support.ts');",
      'src/server/a/type-only.test.ts': "import type { X } from '../db/migration-test-support';",
      'src/server/a/pure.test.ts': "import { x } from './cycle-1.ts';\nimport fc from 'fast-check';",
      'src/shared/money.test.ts': "import { describe } from 'vitest';",
    });
    expect(classifyServerTests(root)).toEqual({
      database: ['src/server/a/dynamic.test.ts', 'src/server/a/static.test.ts', 'src/server/a/type-only.test.ts'],
      plain: ['src/server/a/pure.test.ts', 'src/shared/money.test.ts'],
    });
  });

  it('puts every test of this tree that creates a test context among the database tests', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const { database, plain } = classifyServerTests(root);
    expect(database).toContain('src/server/modules/shop/shop.test.ts');
    expect(plain).toContain('src/shared/money.test.ts');
    expect(plain).toContain('scripts/test-projects.test.ts');
  });
});
