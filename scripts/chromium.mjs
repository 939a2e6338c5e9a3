// Finds the system Chromium for Playwright. Playwright's own browser download does not work on
// our machines, so a missing browser is an error with instructions, never a silent skip.
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/snap/bin/chromium'];

export function findChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

export const CHROMIUM_HELP =
  'No Chromium found for the end-to-end tests.\n' +
  '  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium\n' +
  '  Elsewhere: install Chromium or Chrome and set CHROMIUM_PATH=/path/to/chromium';
