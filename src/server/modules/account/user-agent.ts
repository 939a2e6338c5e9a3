import { UAParser } from 'ua-parser-js';

/**
 * ua-parser-js's names where a sessions list wants the everyday one. (Version 1, MIT: from 2.0 the
 * package is AGPL-3.0, which this project does not take on.)
 */
const BROWSER_NAMES: Record<string, string> = { 'Mobile Safari': 'Safari', 'Mobile Firefox': 'Firefox', 'Chrome Headless': 'Headless Chrome' };
const OS_NAMES: Record<string, string> = { 'Mac OS': 'macOS', 'Chromium OS': 'ChromeOS' };

/** "Chrome on macOS" from a user-agent string; good enough for a sessions list. */
export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua) return 'Unknown browser';
  const { browser, os } = new UAParser(ua).getResult();
  // Command-line clients are not browsers to the parser, but "curl" says more than "Unknown".
  const browserName = browser.name ? (BROWSER_NAMES[browser.name] ?? browser.name) : /^curl\//i.test(ua) ? 'curl' : 'Unknown browser';
  const osName = os.name ? (OS_NAMES[os.name] ?? os.name) : null;
  return osName ? `${browserName} on ${osName}` : browserName;
}
