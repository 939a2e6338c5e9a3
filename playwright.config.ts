import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { serverLog } from './e2e/server-logs.ts';

const port = Number(process.env.E2E_PORT ?? 3300);
export const E2E_BASE_URL = `http://localhost:${port}`;
// A fresh embedded database for every run; the server seeds the demo data into it.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'packvault-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
// Maintenance mode closes the shop for everyone on its server, so its spec gets a server (port,
// data directory) of its own while the rest of the suite runs in parallel against the main one.
const maintenancePort = Number(process.env.E2E_MAINTENANCE_PORT ?? port + 10);
const maintenanceBaseUrl = `http://localhost:${maintenancePort}`;
const maintenanceDataDir = process.env.E2E_MAINTENANCE_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'packvault-e2e-maint-'));
process.env.E2E_MAINTENANCE_DATA_DIR = maintenanceDataDir;
const MAINTENANCE_SPEC = /maintenance\.spec\.ts/;

const serverEnv = (p: number, dir: string, url: string, log: string) => ({
  // scripts/e2e-server.mjs writes the server's output there; the global teardown greps it.
  E2E_SERVER_LOG: log,
  NODE_ENV: 'development',
  PORT: String(p),
  HOST: '127.0.0.1',
  DATA_DIR: dir,
  PUBLIC_URL: url,
  SEED_DEMO: 'true',
  // Every request line too, so the teardown's check sees all the traffic.
  LOG_LEVEL: 'info',
  // The loopback peer (the test runner) may name a client address, so each fixture user
  // signs up from an address of its own instead of the suite sharing one sign-up budget.
  TRUST_PROXY: '127.0.0.1',
});

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Screenshot references are committed next to the specs, one per spec and name: no project or
  // platform suffix, since they are made and compared on the same Linux + /usr/bin/chromium as CI.
  snapshotPathTemplate: '{testDir}/__screenshots__/{testFilePath}/{arg}{ext}',
  fullyParallel: false,
  // Four workers on the 2-core CI machine: a worker spends most of its time waiting on the page and
  // the server, so two left the cores half idle (issue 42 item 6: e2e 18 min at four, in
  // docs/performance.md "Test suite"). Specs that share the server's data are written for it
  // (phone.spec masks what other specs change).
  workers: 4,
  // One retry: a journey that fails once on the shared 2-core CI machine and passes on a clean
  // second run is listed as "flaky" in the report (and must be mended), but does not throw a
  // whole stop's work away. A real failure fails both runs.
  retries: 1,
  // Specs walk whole journeys (sign-up by mail, checkout, admin forms, axe) on a 2-core CI machine
  // that also runs the maintenance project's server; steps wait on what they see, not on time.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL: E2E_BASE_URL,
    // Recording a trace for every test cost about 40 % of the suite's CPU (snapshots and a
    // screencast per action); a failing test is retried once (above) and traced then.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
  projects: [
    { name: 'chromium', testIgnore: MAINTENANCE_SPEC, use: { ...devices['Desktop Chrome'], channel: undefined } },
    { name: 'maintenance', testMatch: MAINTENANCE_SPEC, use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: maintenanceBaseUrl } },
  ],
  webServer: [
    {
      command: 'node scripts/e2e-server.mjs',
      url: `${E2E_BASE_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: serverEnv(port, dataDir, E2E_BASE_URL, serverLog('main')),
    },
    {
      command: 'node scripts/e2e-server.mjs',
      url: `${maintenanceBaseUrl}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: serverEnv(maintenancePort, maintenanceDataDir, maintenanceBaseUrl, serverLog('maintenance')),
    },
  ],
});
