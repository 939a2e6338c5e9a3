import { OG_IMAGE_HEIGHT, OG_IMAGE_WIDTH, pullOgImagePath, pullPagePath, type SharedPull } from '../../../shared/contracts/pulls.ts';
import { formatMoney } from '../../../shared/money.ts';
import { withArticle } from '../../../shared/words.ts';

/**
 * Link previews: crawlers do not run the SPA, so the server writes a page's Open Graph and
 * Twitter tags into index.html before sending it.
 */

export interface PageMeta {
  title: string;
  description: string;
  /** Absolute URLs: crawlers resolve nothing. */
  url: string;
  image: string;
  imageAlt: string;
  imageWidth: number;
  imageHeight: number;
}

export function escapeHtml(s: string): string {
  return s.replace(/[<>&'"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[ch]!);
}

/** index.html with the page's title, description and preview tags (every value escaped). */
export function injectMeta(html: string, meta: PageMeta): string {
  const e = escapeHtml;
  const tags = [
    `<meta name="description" content="${e(meta.description)}" />`,
    `<link rel="canonical" href="${e(meta.url)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:title" content="${e(meta.title)}" />`,
    `<meta property="og:description" content="${e(meta.description)}" />`,
    `<meta property="og:url" content="${e(meta.url)}" />`,
    `<meta property="og:image" content="${e(meta.image)}" />`,
    `<meta property="og:image:type" content="image/png" />`,
    `<meta property="og:image:width" content="${meta.imageWidth}" />`,
    `<meta property="og:image:height" content="${meta.imageHeight}" />`,
    `<meta property="og:image:alt" content="${e(meta.imageAlt)}" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${e(meta.title)}" />`,
    `<meta name="twitter:description" content="${e(meta.description)}" />`,
    `<meta name="twitter:image" content="${e(meta.image)}" />`,
  ].join('\n    ');
  // A function replacement, so `$&` and friends in a value stay literal.
  return html
    .replace(/<meta\s+name="description"[^>]*>\s*/i, '')
    .replace(/<title>[\s\S]*?<\/title>/i, () => `<title>${e(meta.title)}</title>`)
    .replace(/<\/head>/i, () => `  ${tags}\n  </head>`);
}

export function pullMeta(data: SharedPull, opts: { publicUrl: string; siteName: string; currency: string }): PageMeta {
  const p = data.pull;
  const value = formatMoney(p.valueCents, opts.currency);
  return {
    title: `${p.card.name} (${value}) pulled from ${p.productName} · ${opts.siteName}`,
    description: `${p.username} pulled ${p.card.name}, ${withArticle(p.card.className)} card worth ${value}, from ${p.productName} on ${opts.siteName}. Every pull is provably fair.`,
    url: `${opts.publicUrl}${pullPagePath(p.ownedCardId)}`,
    image: `${opts.publicUrl}${pullOgImagePath(p.ownedCardId)}`,
    imageAlt: `${p.card.name}, ${p.card.className}, worth ${value}`,
    imageWidth: OG_IMAGE_WIDTH,
    imageHeight: OG_IMAGE_HEIGHT,
  };
}
