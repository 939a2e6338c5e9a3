// Finds the system Chromium for Playwright. Playwright's own browser download does not work on
// our machines, so a missing browser is an error with instructions, never a silent skip.
import { existsSync } from 'node:fs';

/**
 * Chromium's headless shell first (Debian's `chromium-headless-shell`: the browser without its
 * windowing half, which Playwright itself uses for headless runs): the e2e suite's pages cost it
 * less than half the CPU of the full browser in headless mode (ADR 0006), and the suite is
 * CPU-bound. The full browser still runs it when the shell is not installed.
 */
const CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/snap/bin/chromium'];

export function findChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

export const CHROMIUM_HELP =
  'No Chromium found for the end-to-end tests.\n' +
  '  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium-headless-shell chromium\n' +
  '  Elsewhere: install Chromium or Chrome and set CHROMIUM_PATH=/path/to/chromium';
