import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { OG_IMAGE_HEIGHT, OG_IMAGE_WIDTH, type SharedPull } from '../../../shared/contracts/pulls.ts';
import { formatMoney } from '../../../shared/money.ts';
import type { Storage } from '../uploads/storage.ts';
import { variantFile } from '../uploads/service.ts';

/**
 * The Open Graph image of a pull (1200×630 PNG): an SVG with a card-like frame in the class's
 * colour, the card's artwork composited into it when the thumb is stored, and the name, value,
 * class, pack and puller beside it.
 */

const W = OG_IMAGE_WIDTH;
const H = OG_IMAGE_HEIGHT;
// The card frame: 5:7 like the cards on the site.
const CARD = { x: 90, y: 55, w: 372, h: 520 } as const;
const ART = { x: CARD.x + 18, y: CARD.y + 18, w: CARD.w - 36, h: CARD.h - 36 } as const;

export function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[ch]!);
}

/** librsvg does not wrap text: cut long names so they stay on the image. */
function fit(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

export interface OgInput {
  data: SharedPull;
  siteName: string;
  currency: string;
}

/** What the image shows; its hash is the ETag, so a changed name or value gives a new image. */
export function ogFingerprint({ data, siteName, currency }: OgInput): string {
  const p = data.pull;
  const parts = [p.ownedCardId, p.card.name, p.card.className, p.card.classColour, p.card.imageKey, p.valueCents, p.productName, p.username, siteName, currency];
  return `"${createHash('sha1').update(JSON.stringify(parts)).digest('base64url')}"`;
}

const svg = (body: string, defs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs}</defs>${body}</svg>`;

/** Two layers, so the artwork can go between them: the background with the card frame, and the words. */
export function ogLayers({ data, siteName, currency }: OgInput, hasArt: boolean): { back: string; front: string } {
  const p = data.pull;
  const colour = HEX.test(p.card.classColour) ? p.card.classColour : '#a855f7';
  const text = (x: number, y: number, size: number, fill: string, value: string, weight = 400) =>
    `<text x="${x}" y="${y}" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeXml(value)}</text>`;
  const tx = 530;
  const className = fit(p.card.className, 28);
  const back = svg(
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>
  <circle cx="${CARD.x + CARD.w / 2}" cy="${CARD.y + CARD.h / 2}" r="330" fill="${colour}" fill-opacity="0.14"/>
  <rect x="${CARD.x}" y="${CARD.y}" width="${CARD.w}" height="${CARD.h}" rx="26" fill="#151522" stroke="${colour}" stroke-width="8"/>
  ${hasArt ? '' : `<rect x="${ART.x}" y="${ART.y}" width="${ART.w}" height="${ART.h}" rx="14" fill="url(#shine)"/>`}`,
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b0b14"/><stop offset="1" stop-color="#1e1033"/></linearGradient>
  <linearGradient id="shine" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colour}" stop-opacity="0.55"/><stop offset="1" stop-color="#0b0b14" stop-opacity="0.9"/></linearGradient>`,
  );
  const front = svg(`<rect x="${ART.x}" y="${ART.y + ART.h - 92}" width="${ART.w}" height="92" rx="14" fill="#0b0b14" fill-opacity="0.82"/>
  ${text(ART.x + 18, ART.y + ART.h - 54, 26, '#ffffff', fit(p.card.name, 22), 700)}
  ${text(ART.x + 18, ART.y + ART.h - 20, 20, colour, className, 700)}
  ${text(tx, 118, 26, '#e879f9', fit(siteName.toUpperCase(), 40), 700)}
  ${text(tx, 170, 30, '#d4d4d8', 'Pulled from')}
  ${text(tx, 214, 36, '#ffffff', fit(p.productName, 32), 700)}
  ${text(tx, 320, p.card.name.length > 16 ? 44 : 58, '#ffffff', fit(p.card.name, 26), 700)}
  <rect x="${tx}" y="350" width="${Math.min(560, 40 + className.length * 16)}" height="48" rx="24" fill="${colour}" fill-opacity="0.25" stroke="${colour}" stroke-width="2"/>
  ${text(tx + 20, 383, 24, '#ffffff', className, 700)}
  ${text(tx, 490, 72, '#fcd34d', formatMoney(p.valueCents, currency), 700)}
  ${text(tx, 560, 28, '#a1a1aa', `by ${fit(p.username, 30)}`)}`);
  return { back, front };
}

/** The PNG; the artwork comes from storage when it is there, and is simply left out otherwise. */
export async function renderOgImage(input: OgInput, storage: Storage): Promise<Buffer> {
  const art = await artwork(input.data.pull.card.imageKey, storage);
  const { back, front } = ogLayers(input, art !== null);
  const layers: Array<{ input: Buffer; left: number; top: number }> = [];
  if (art) layers.push({ input: art, left: ART.x, top: ART.y });
  layers.push({ input: Buffer.from(front), left: 0, top: 0 });
  return sharp(Buffer.from(back)).composite(layers).png().toBuffer();
}

async function artwork(key: string, storage: Storage): Promise<Buffer | null> {
  if (!key) return null;
  const found = await storage.get(variantFile(key, 'thumb')).catch(() => null);
  if (!found) return null;
  const mask = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${ART.w}" height="${ART.h}"><rect width="${ART.w}" height="${ART.h}" rx="14" fill="#fff"/></svg>`);
  // A broken stored file leaves the art out rather than failing the preview.
  return sharp(found.data)
    .resize(ART.w, ART.h, { fit: 'cover' })
    .composite([{ input: mask, blend: 'dest-in' }])
    .png()
    .toBuffer()
    .catch(() => null);
}
