import { createHash } from 'node:crypto';
import { FIRST_SCREEN_TIMING } from '../../shared/ssr-state.ts';

/**
 * How a page drawn on the server starts its code: once its first screen is on the screen, not
 * beside it (docs/decisions/0027, 0036). The page is already there to read, so on a slow connection
 * the HTML and the images it shows first get the pipe to themselves, and the code follows.
 *
 * "On the screen" is what the browser reports, not the frame after the main thread's paint: the
 * browser then still rasterizes and presents that frame, which on a phone drawing in software
 * takes a few hundred ms, and code started meanwhile competes with it. So once the whole document
 * has arrived (its data is at its end) it waits for:
 * - the first contentful paint (Paint Timing), and
 * - each image marked `elementtiming="first-screen"` (FIRST_SCREEN_TIMING: the page's
 *   `fetchpriority="high"` images) that is in view, to be painted (Element Timing) or to fail.
 * Without those APIs (Safari, Firefox) it waits for the frame after the next paint.
 * It never waits more than 2.5 s, nor past the user's first key or pointer press (React replays
 * an event it gets before hydration), nor while the tab is hidden (a hidden tab paints nothing).
 *
 * Then it adds the page's code as `modulepreload`s and the entry as a module script, both in the
 * entry's CORS mode, as Vite's own tags would have.
 *
 * It is the page's only inline script; the CSP allows exactly it by its hash, so it is static:
 * what it loads is read from its own data attributes.
 */
export const BOOT_SCRIPT =
  '(function(){var b=document.currentScript,d=document,w=window,on=0;' +
  'function go(){if(on)return;on=1;' +
  '(b.getAttribute("data-preload")||"").split(" ").forEach(function(u){if(u){var l=d.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=u;d.head.appendChild(l)}});' +
  'var s=d.createElement("script");s.type="module";s.crossOrigin="";s.src=b.getAttribute("data-src");d.head.appendChild(s)}' +
  'function soon(){setTimeout(go,0)}' +
  'function later(){if(d.visibilityState==="hidden")return go();' +
  'setTimeout(go,2500);d.addEventListener("visibilitychange",go);' +
  '["keydown","pointerdown"].forEach(function(e){d.addEventListener(e,go,{capture:!0,passive:!0})});' +
  'var P=w.PerformanceObserver,t=(P&&P.supportedEntryTypes)||[];' +
  'if(t.indexOf("paint")<0||t.indexOf("element")<0)return requestAnimationFrame(soon);' +
  'var fcp=0,left=[].filter.call(d.querySelectorAll(\'img[elementtiming="' + FIRST_SCREEN_TIMING + '"]\'),function(i){var r=i.getBoundingClientRect();' +
  'return r.bottom>0&&r.right>0&&r.top<w.innerHeight&&r.left<w.innerWidth&&!(i.complete&&!i.naturalWidth)});' +
  'function check(){if(fcp&&!left.length)soon()}' +
  'function drop(x){left=left.filter(function(i){return i!==x})}' +
  'left.forEach(function(i){i.addEventListener("error",function(){drop(i);check()})});' +
  'var o=new P(function(l){l.getEntries().forEach(function(e){if(e.name==="first-contentful-paint")fcp=1;else if(e.entryType==="element")drop(e.element)});check()});' +
  'o.observe({type:"paint",buffered:!0});o.observe({type:"element",buffered:!0})}' +
  'if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",later);else later()})()';

/** The CSP source that allows BOOT_SCRIPT and no other inline script. */
export const BOOT_SCRIPT_CSP = `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The tag that starts a drawn page's code: its entry script, and the page's chunks to preload. */
export function bootTag(entrySrc: string, preloads: readonly string[]): string {
  return `<script data-src="${escapeAttr(entrySrc)}" data-preload="${escapeAttr(preloads.join(' '))}">${BOOT_SCRIPT}</script>`;
}
