import { and, eq, isNull } from 'drizzle-orm';
import type { GradingCompany } from '../../shared/contracts/grading.ts';
import { formatGrade } from '../../shared/contracts/grading.ts';
import { cards } from '../db/schema/catalog.ts';
import type { Deps } from '../deps.ts';
import { recordValues } from '../modules/catalog/value-history.ts';
import { slabsForStock } from '../modules/inventory/slabs.ts';
import { storeImage } from '../modules/uploads/service.ts';
import { storageFor } from '../modules/uploads/storage.ts';
import { PALETTES, png, rng } from './catalog.ts';

/**
 * Demo graded cards (issue 19): a few of the demo catalog's top cards get a slab — company, grade,
 * certificate — photos of its front and back, drawn here like the artwork, and a value history
 * reaching back half a year, so the card view has a chart with a story. Idempotent: a card that
 * already has its grading is left alone.
 */

const PW = 600;
const PH = 1000;

const GRADED: Array<{ set: string; number: number; company: GradingCompany; grade: number; cert: string }> = [
  { set: 'Nebula Drift', number: 28, company: 'PSA', grade: 10, cert: '72184530' },
  { set: 'Iron Bloom', number: 28, company: 'BGS', grade: 9.5, cert: '0012876543' },
  { set: 'Tidal Myths', number: 28, company: 'CGC', grade: 9.5, cert: '4123456001' },
  { set: 'Nebula Drift', number: 27, company: 'PSA', grade: 9, cert: '68420197' },
  { set: 'Iron Bloom', number: 26, company: 'CGC', grade: 8.5, cert: '4123456017' },
  { set: 'Tidal Myths', number: 25, company: 'PSA', grade: 8.5, cert: '70051234' },
];

const LABEL_COLOUR: Record<GradingCompany, { band: string; text: string }> = {
  PSA: { band: '#b91c1c', text: '#ffffff' },
  BGS: { band: '#1e3a8a', text: '#fde68a' },
  CGC: { band: '#0f766e', text: '#ffffff' },
  SGC: { band: '#111827', text: '#f8fafc' },
};

const esc = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The slab from the front: label with company, card name, grade and certificate; the card below. */
function slabFrontSvg(i: number, name: string, company: GradingCompany, grade: number, cert: string) {
  const [bg, mid, hi, glow] = PALETTES[i % PALETTES.length]!;
  const l = LABEL_COLOUR[company];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PW}" height="${PH}">
    <defs>
      <linearGradient id="case" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e5e7eb"/><stop offset=".5" stop-color="#f8fafc"/><stop offset="1" stop-color="#cbd5e1"/></linearGradient>
      <linearGradient id="art" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${bg}"/><stop offset=".6" stop-color="${mid}"/><stop offset="1" stop-color="${hi}"/></linearGradient>
    </defs>
    <rect width="100%" height="100%" fill="#27272a"/>
    <rect x="30" y="30" width="${PW - 60}" height="${PH - 60}" rx="28" fill="url(#case)" stroke="#94a3b8" stroke-width="6"/>
    <rect x="60" y="60" width="${PW - 120}" height="170" rx="10" fill="#ffffff" stroke="${l.band}" stroke-width="6"/>
    <rect x="60" y="60" width="${PW - 120}" height="44" rx="8" fill="${l.band}"/>
    <text x="80" y="92" font-family="sans-serif" font-size="30" font-weight="700" fill="${l.text}">${company}</text>
    <text x="80" y="145" font-family="sans-serif" font-size="28" font-weight="700" fill="#111827">${esc(name)}</text>
    <text x="80" y="200" font-family="monospace" font-size="24" fill="#374151">#${cert}</text>
    <text x="${PW - 80}" y="205" text-anchor="end" font-family="sans-serif" font-size="76" font-weight="800" fill="${l.band}">${formatGrade(grade)}</text>
    <rect x="95" y="270" width="${PW - 190}" height="${PH - 340}" rx="16" fill="url(#art)" stroke="#111827" stroke-width="8"/>
    <circle cx="${PW / 2}" cy="520" r="110" fill="${glow}" opacity=".85"/>
    <path d="M95 ${PH - 250} L${PW / 2} ${PH - 400} L${PW - 95} ${PH - 260} V${PH - 70} H95Z" fill="${bg}" opacity=".7"/>
  </svg>`;
}

/** The slab from the back: the company's band, a barcode and the certificate number. */
function slabBackSvg(i: number, company: GradingCompany, cert: string) {
  const r = rng(5000 + i);
  const l = LABEL_COLOUR[company];
  let bars = '';
  for (let x = 110; x < PW - 110; ) {
    const w = 2 + Math.floor(r() * 6);
    if (r() > 0.35) bars += `<rect x="${x}" y="110" width="${w}" height="90" fill="#111827"/>`;
    x += w + 2;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PW}" height="${PH}">
    <rect width="100%" height="100%" fill="#27272a"/>
    <rect x="30" y="30" width="${PW - 60}" height="${PH - 60}" rx="28" fill="#e2e8f0" stroke="#94a3b8" stroke-width="6"/>
    <rect x="60" y="60" width="${PW - 120}" height="200" rx="10" fill="#ffffff" stroke="${l.band}" stroke-width="6"/>
    ${bars}
    <text x="${PW / 2}" y="238" text-anchor="middle" font-family="monospace" font-size="26" fill="#111827">${cert}</text>
    <rect x="95" y="290" width="${PW - 190}" height="${PH - 360}" rx="16" fill="#1e1b4b" stroke="#111827" stroke-width="8"/>
    <text x="${PW / 2}" y="${PH / 2 + 60}" text-anchor="middle" font-family="sans-serif" font-size="64" font-weight="800" fill="${l.band}" opacity=".9">${company}</text>
  </svg>`;
}

const DAY = 86_400_000;

export async function seedGradedCards(deps: Deps): Promise<void> {
  const { db } = deps;
  const storage = storageFor(deps.config.dataDir);
  const store = async (svg: string) => (await storeImage(db, storage, { data: await png(svg, PW, PH), actorId: null })).upload.key;
  for (const [i, g] of GRADED.entries()) {
    const [card] = await db
      .select({ id: cards.id, name: cards.name, valueCents: cards.valueCents, createdAt: cards.createdAt, stock: cards.stock })
      .from(cards)
      .where(and(eq(cards.setName, g.set), eq(cards.number, g.number), isNull(cards.gradingCompany)));
    if (!card) continue;
    const frontPhotoKey = await store(slabFrontSvg(i, card.name, g.company, g.grade, g.cert));
    const backPhotoKey = await store(slabBackSvg(i, g.company, g.cert));
    // The market before the card joined the catalog: a wandering climb to today's value.
    const r = rng(9000 + i);
    const past = Array.from({ length: 8 }, (_, k) => {
      const ratio = 0.55 + (k / 8) * 0.4 + (r() - 0.5) * 0.12;
      return { cardId: card.id, valueCents: Math.max(1, Math.round(card.valueCents * ratio)), at: new Date(card.createdAt.getTime() - (180 - k * 22) * DAY) };
    });
    await db.transaction(async (tx) => {
      await tx
        .update(cards)
        .set({ gradingCompany: g.company, grade: g.grade, frontPhotoKey, backPhotoKey, updatedAt: new Date() })
        .where(and(eq(cards.id, card.id), isNull(cards.gradingCompany)));
      // Every copy in stock is a slab of its own (issue 38): the photographed one carries the
      // certificate above, the others the next numbers.
      const slabs = Array.from({ length: card.stock }, (_, k) => ({
        grader: g.company,
        grade: g.grade,
        certNumber: String(BigInt(g.cert) + BigInt(k)).padStart(g.cert.length, '0'),
        frontPhotoKey: k === 0 ? frontPhotoKey : null,
        backPhotoKey: k === 0 ? backPhotoKey : null,
      }));
      await slabsForStock(tx, card.id, slabs);
      await recordValues(tx, past, 'seed');
    });
  }
}
