import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_HEADS } from '@shared/page-heads';
import { LAYOUT_CLASSES, siteShellHtml } from '@shared/site-shell';
import { PageHeader } from '@web/components/ui';
import { SiteHeader } from './site-chrome';

// The header as React draws it while the session is still unknown — the state its first render is in.
vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to, className, ...rest }: { children: ReactNode; to: string; className?: string; activeOptions?: unknown; 'aria-label'?: string }) => (
    <a href={to} className={className} aria-label={rest['aria-label']}>
      {children}
    </a>
  ),
}));
vi.mock('@web/features/auth/session', () => ({ useSession: () => ({ data: undefined, isPending: true }) }));
vi.mock('@web/hooks/use-site-config', () => ({ useSiteConfig: () => ({ siteName: 'Card & Co', currency: 'USD' }) }));

afterEach(cleanup);

/** Every element's tag and classes, and the text and names a reader meets, in document order. */
function outline(root: Element): string[] {
  const out: string[] = [];
  const walk = (el: Element, depth: number) => {
    const cls = (el.getAttribute('class') ?? '').split(/\s+/).filter(Boolean).sort().join(' ');
    const attrs = ['href', 'aria-label', 'aria-hidden'].map((a) => (el.hasAttribute(a) ? ` ${a}=${el.getAttribute(a)}` : '')).join('');
    const own = Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
    out.push(`${'  '.repeat(depth)}${el.tagName.toLowerCase()}.${cls}${attrs}${own ? ` "${own}"` : ''}`);
    // The logo's drawing is compared separately: its gradient id differs by design.
    if (el.tagName.toLowerCase() === 'svg') return;
    for (const child of Array.from(el.children)) walk(child, depth + 1);
  };
  walk(root, 0);
  return out;
}

describe('the site shell in the first HTML', () => {
  it('is the header React draws first, box for box (so nothing moves when the app starts)', () => {
    const { container } = render(<SiteHeader />);
    const reactHeader = container.querySelector('header')!;
    const shell = document.createElement('div');
    shell.innerHTML = siteShellHtml('Card & Co');
    const shellHeader = shell.querySelector('header')!;

    // The one difference allowed: the phone menu button is a placeholder of its size until the app runs.
    const reactOutline = outline(reactHeader);
    const shellOutline = outline(shellHeader);
    const menu = reactOutline.findIndex((l) => l.includes('aria-label=Open menu'));
    expect(menu).toBeGreaterThan(-1);
    expect(reactOutline[menu]).toMatch(/size-10/);
    expect(reactOutline[menu]).toMatch(/md:hidden/);
    expect(shellOutline[menu]).toMatch(/^\s*span\.inline-block md:hidden shrink-0 size-10 aria-hidden=true$/);
    expect([...shellOutline.slice(0, menu), ...shellOutline.slice(menu + 1)]).toEqual(
      [...reactOutline.slice(0, menu), ...reactOutline.slice(menu + 2)].filter((l) => !/^\s+(svg|path|line)\./.test(l) || l.includes('size-8')),
    );

    const mark = (el: Element) => el.querySelector('svg')!.innerHTML.replace(/pv-logo-[^")]+/g, 'ID').replace(/\s+/g, ' ');
    expect(mark(shellHeader)).toBe(mark(reactHeader));
  });

  it.each(Object.entries(PAGE_HEADS))('puts the heading of %s under the header as PageHeader draws it, in the layout’s main', (_, head) => {
    const { container } = render(<PageHeader {...head} />);
    const shell = document.createElement('div');
    shell.innerHTML = siteShellHtml('Card & Co', head);
    const main = shell.querySelector('[data-shell] > header + div > main')!;
    expect(main.parentElement!.className).toBe(LAYOUT_CLASSES.below);
    expect(main.className).toBe(LAYOUT_CLASSES.main);
    expect(main.children).toHaveLength(1);
    expect(outline(main.firstElementChild!)).toEqual(outline(container.querySelector('header')!));
  });

  it('leaves the page’s part out when there is no heading, and escapes the heading', () => {
    const bare = document.createElement('div');
    bare.innerHTML = siteShellHtml('Card & Co');
    expect(bare.querySelector('main')).toBeNull();
    const html = siteShellHtml('Card & Co', { title: '<b>x</b>', description: 'a & "b"' });
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).toContain('a &amp; &quot;b&quot;');
  });

  it('escapes the site name', () => {
    const html = siteShellHtml('<script>alert(1)</script>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });
});
