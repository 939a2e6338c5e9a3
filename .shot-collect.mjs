import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const [who, path, file, w] of [['user', '/collect', 'collect.png', 1280], ['user', '/collect', 'collect-phone.png', 390], ['admin', '/admin/buyback', 'admin-buyback.png', 1280], ['admin', '/admin/owned', 'admin-owned.png', 1280]]) {
  const ctx = await b.newContext({ storageState: `/work/main/e2e/.auth/${who}.json`, viewport: { width: w, height: 900 } });
  const p = await ctx.newPage();
  await p.goto(`http://localhost:3388${path}`);
  await p.waitForTimeout(2500);
  if (path === '/collect') { const c = p.getByRole('checkbox').first(); if (await c.count()) await c.check(); await p.waitForTimeout(300); }
  await p.screenshot({ path: `/tmp/pv-collect/${file}`, fullPage: false });
  await ctx.close();
}
await b.close();
