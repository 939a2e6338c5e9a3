import { createHash } from 'node:crypto';

/**
 * How a page drawn on the server starts its code: after its first paint, not beside it
 * (docs/decisions/0027). The page is already there to read, so on a slow connection the HTML and
 * the images it shows first get the pipe to themselves, and the code (the same bytes) follows.
 * Waits for the whole document (the page's data is at its end), then for the frame after the next
 * paint; a hidden tab paints nothing, so it starts at once. Adds the page's code as
 * `modulepreload`s and the entry as a module script, both in the entry's CORS mode, as Vite's own
 * tags would have.
 *
 * It is the page's only inline script; the CSP allows exactly it by its hash, so it is static:
 * what it loads is read from its own data attributes.
 */
export const BOOT_SCRIPT =
  '(function(){var b=document.currentScript,d=document;' +
  'function go(){(b.getAttribute("data-preload")||"").split(" ").forEach(function(u){if(u){var l=d.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=u;d.head.appendChild(l)}});' +
  'var s=d.createElement("script");s.type="module";s.crossOrigin="";s.src=b.getAttribute("data-src");d.head.appendChild(s)}' +
  'function later(){if(d.visibilityState==="hidden")go();else requestAnimationFrame(function(){setTimeout(go,0)})}' +
  'if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",later);else later()})()';

/** The CSP source that allows BOOT_SCRIPT and no other inline script. */
export const BOOT_SCRIPT_CSP = `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The tag that starts a drawn page's code: its entry script, and the page's chunks to preload. */
export function bootTag(entrySrc: string, preloads: readonly string[]): string {
  return `<script data-src="${escapeAttr(entrySrc)}" data-preload="${escapeAttr(preloads.join(' '))}">${BOOT_SCRIPT}</script>`;
}
