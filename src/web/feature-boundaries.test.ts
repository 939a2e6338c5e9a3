// @vitest-environment node
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * A web feature never imports another feature (eslint.config.js, one no-restricted-imports entry
 * per folder of src/web/features). The rule must fail on a deliberate violation, in every form an
 * import can take, and let a feature import itself, the kit, the libs and shared contracts.
 */

const root = join(import.meta.dirname, '..', '..');
const file = join(root, 'src', 'web', 'features', 'shop', 'cheat.tsx');
const lint = async (code: string) => {
  const [r] = await new ESLint({ cwd: root }).lintText(code, { filePath: file });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
};

describe('web feature boundaries', () => {
  it.each([
    ["import { walletQuery } from '@web/features/wallet/api';"],
    ["import * as wallet from '@web/features/wallet';"],
    ["import { CardView } from '../catalog/card-view';"],
    ["export { accountApi } from '@web/features/account/api';"],
  ])('refuses %s', async (code) => {
    const messages = await lint(code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/Feature "shop" must not import feature/);
  });

  it('allows its own files, the kit, the libs and shared contracts', async () => {
    expect(
      await lint(
        [
          "import { productQuery } from './api';",
          "import { RevealStage } from '@web/features/shop/reveal/stage';",
          "import { Button } from '@web/components/ui';",
          "import { api } from '@web/lib/api';",
          "import type { ProductSummary } from '@shared/contracts/shop';",
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  // no-restricted-imports sees static imports only; packvault/web-features (lint/boundaries.js)
  // sees the rest (issue 42: a dynamic import of another feature used to pass).
  it.each([
    // What shop/reveal/build-up.ts did until issue 42.
    ["void import('../../collection/sell-back-panel');", join('reveal', 'build-up.ts')],
    ["export const load = () => import('@web/features/collection/sell-back-panel');", 'cheat.tsx'],
    ['const load = () => import(`../collection/vault`);', 'cheat.tsx'],
    ["export type Panel = typeof import('../collection/sell-back-panel');", 'cheat.tsx'],
    ["export type Props = import('@web/features/collection').SellBackPanelProps;", 'cheat.tsx'],
  ])('refuses the dynamic or type-query import %s', async (code, at) => {
    const [r] = await new ESLint({ cwd: root }).lintText(code, { filePath: join(root, 'src', 'web', 'features', 'shop', at) });
    const messages = r!.messages.filter((m) => m.ruleId === 'packvault/web-features').map((m) => m.message);
    expect(messages).toEqual([expect.stringMatching(/Feature "shop" must not import feature "collection"/)]);
  });

  it('allows dynamic imports of its own files and the kit', async () => {
    const [r] = await new ESLint({ cwd: root }).lintText(
      ["void import('./reveal/pack-opening');", "void import('@web/features/shop/reveal/tear-stage');", "void import('@web/components/ui/dialog');"].join('\n'),
      { filePath: file },
    );
    expect(r!.messages.filter((m) => m.ruleId === 'packvault/web-features')).toEqual([]);
  });

  it('still refuses server code in the web', async () => {
    expect(await lint("import { db } from '../../../server/db/client.ts';")).toEqual([expect.stringMatching(/must not import server code/)]);
  });
});
