import type { PageHead } from './page-heads.ts';
import { SITE_NAV } from './site-nav.ts';

/**
 * The site header as the first HTML of a public shop page, before any JavaScript runs: the
 * logo, the main navigation (real links) and the placeholder the header shows while it asks who is
 * signed in. React replaces it on start with the same header, box for box, so the page paints at
 * once and nothing moves when the app takes over (site-shell.test.tsx holds the two together).
 * The class lists are shared with layouts/site-chrome.tsx for the same reason.
 */
export const HEADER_CLASSES = {
  frame: 'vault-backdrop flex min-h-dvh flex-col text-zinc-100',
  header: 'sticky top-0 z-30 border-b border-white/10 bg-ink/80 backdrop-blur-md',
  bar: 'mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:gap-4 sm:px-6',
  logoLink: 'shrink-0 rounded-lg',
  nav: 'hidden flex-1 items-center gap-1 md:flex',
  navLink:
    'rounded-lg px-3 py-2 text-sm font-medium text-zinc-300 transition-colors hover:bg-white/5 hover:text-white ' +
    'aria-[current=page]:bg-violet-500/15 aria-[current=page]:text-white',
  end: 'ml-auto flex items-center gap-2',
  /** The signed-in/visitor part while the session is unknown (a Skeleton h-9 w-28). */
  pending: 'animate-pulse rounded-lg bg-white/[0.07] h-9 w-28',
  /** Holds the phone menu button's place (an icon Button, size-10, md:hidden). */
  menuSlot: 'inline-block size-10 shrink-0 md:hidden',
} as const;

/** The site layout below the header (layouts/site-layout.tsx), shared for the same reason. */
export const LAYOUT_CLASSES = {
  /** At least a screen tall below the header, so the footer starts below the first screen. */
  below: 'flex min-h-[calc(100svh-4rem)] flex-1 flex-col',
  main: 'mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6 sm:py-10',
} as const;

/** A page's heading block (components/ui/page-header.tsx), shared for the same reason. */
export const PAGE_HEADER_CLASSES = {
  header: 'mb-6 flex flex-col gap-4 sm:mb-8 sm:flex-row sm:items-end sm:justify-between',
  text: 'min-w-0',
  eyebrow: 'mb-1 text-xs font-semibold tracking-widest text-fuchsia-300 uppercase',
  title: 'text-2xl font-bold tracking-tight text-white sm:text-3xl',
  description: 'mt-2 max-w-2xl text-zinc-300',
} as const;

/** The Logo component's mark (components/ui/logo.tsx), with a fixed gradient id. */
export const LOGO_MARK_SVG =
  '<svg aria-hidden="true" viewBox="0 0 32 32" class="size-8 shrink-0"><defs><linearGradient id="pv-logo-shell" x1="0" y1="0" x2="1" y2="1">' +
  '<stop offset="0" stop-color="#a78bfa"></stop><stop offset="1" stop-color="#e879f9"></stop></linearGradient></defs>' +
  '<rect x="2" y="2" width="28" height="28" rx="8" fill="#1b1b2a" stroke="url(#pv-logo-shell)" stroke-width="2"></rect>' +
  '<rect x="10" y="7" width="12" height="18" rx="2.5" fill="url(#pv-logo-shell)" transform="rotate(-8 16 16)"></rect>' +
  '<path d="M13.5 13.5h5M13.5 17h3.5" stroke="#1b1b2a" stroke-width="1.6" stroke-linecap="round" transform="rotate(-8 16 16)"></path>' +
  '<circle cx="22.5" cy="22.5" r="2.2" fill="#f5c451"></circle></svg>';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The page's heading block under the header, in the site layout's main (site-shell.test.tsx). */
function pageHeadHtml(head: PageHead): string {
  const c = PAGE_HEADER_CLASSES;
  return (
    `<div class="${LAYOUT_CLASSES.below}"><main class="${LAYOUT_CLASSES.main}"><header class="${c.header}"><div class="${c.text}">` +
    (head.eyebrow ? `<p class="${c.eyebrow}">${escapeHtml(head.eyebrow)}</p>` : '') +
    `<h1 class="${c.title}">${escapeHtml(head.title)}</h1>` +
    (head.description ? `<p class="${c.description}">${escapeHtml(head.description)}</p>` : '') +
    `</div></header></main></div>`
  );
}

/** The shell's HTML, to go inside `<div id="root">`: the header, and the page's heading if given. */
export function siteShellHtml(siteName: string, head?: PageHead): string {
  const name = escapeHtml(siteName);
  const c = HEADER_CLASSES;
  const links = SITE_NAV.map((d) => `<a href="${d.path}" class="${c.navLink}">${escapeHtml(d.nav ?? d.title)}</a>`).join('');
  return (
    `<div class="${c.frame}" data-shell=""><header class="${c.header}"><div class="${c.bar}">` +
    `<a href="/" class="${c.logoLink}" aria-label="${name} home"><span class="inline-flex items-center gap-2 font-bold tracking-tight text-white">` +
    `${LOGO_MARK_SVG}<span class="text-lg sr-only sm:not-sr-only">${name}</span></span></a>` +
    `<nav aria-label="Main" class="${c.nav}">${links}</nav>` +
    `<div class="${c.end}"><div aria-hidden="true" class="${c.pending}"></div><span aria-hidden="true" class="${c.menuSlot}"></span></div>` +
    `</div></header>${head ? pageHeadHtml(head) : ''}</div>`
  );
}
