import { and, eq, isNull, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { ArchitectLayout, BlendMode } from '../../shared/contracts/catalog.ts';
import { architects, cardClasses, cards, textures } from '../db/schema/catalog.ts';
import { changeStock } from '../modules/inventory/service.ts';
import type { Deps } from '../deps.ts';
import { storeImage } from '../modules/uploads/service.ts';
import { storageFor } from '../modules/uploads/storage.ts';
import type { SeedStep } from './index.ts';
import { recordValues } from '../modules/catalog/value-history.ts';
import { seedGradedCards } from './graded.ts';

/**
 * Demo catalog: 5 classes, 3 textures, 2 architects and 84 cards over 3 sets. Every image is
 * drawn here as SVG and rasterised with sharp (nothing is downloaded). Safe to run repeatedly.
 */

// Deterministic pseudo-random numbers, so every run seeds the same catalog.
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const W = 750;
const H = 1050;

export async function png(svg: string, width = W, height = H) {
  return sharp(Buffer.from(svg)).resize(width, height).png({ compressionLevel: 1 }).toBuffer();
}

// ───────────── textures ─────────────

function rainbowSvg() {
  const stops = ['#ff0080', '#ff8c00', '#ffe600', '#00ff88', '#00c8ff', '#7a00ff', '#ff0080']
    .map((c, i, a) => `<stop offset="${(i / (a.length - 1)) * 100}%" stop-color="${c}"/>`)
    .join('');
  let bands = '';
  for (let i = -H; i < W + H; i += 90) {
    bands += `<rect x="${i}" y="-200" width="45" height="${H + 400}" fill="#fff" opacity="0.18" transform="rotate(28 ${i} 0)"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">${stops}</linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${bands}</svg>`;
}

function sparkleSvg() {
  const r = rng(7);
  let dots = '';
  for (let i = 0; i < 420; i++) {
    const x = (r() * W).toFixed(1);
    const y = (r() * H).toFixed(1);
    const s = (0.8 + r() * 3.2).toFixed(1);
    const o = (0.35 + r() * 0.65).toFixed(2);
    dots += `<circle cx="${x}" cy="${y}" r="${s}" fill="#fff" opacity="${o}"/>`;
    if (i % 14 === 0) {
      dots += `<path d="M${x} ${+y - 14}L${+x + 2.5} ${y}L${x} ${+y + 14}L${+x - 2.5} ${y}Z" fill="#fff" opacity="${o}"/>`;
      dots += `<path d="M${+x - 14} ${y}L${x} ${+y + 2.5}L${+x + 14} ${y}L${x} ${+y - 2.5}Z" fill="#fff" opacity="${o}"/>`;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#000"/>${dots}</svg>`;
}

function brushedSvg() {
  const r = rng(11);
  let lines = '';
  for (let y = 0; y < H + W; y += 3) {
    const g = Math.floor(90 + r() * 140);
    lines += `<line x1="0" y1="${y}" x2="${W}" y2="${y - W * 0.6}" stroke="rgb(${g},${g},${g + 10})" stroke-width="2"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#777"/>${lines}</svg>`;
}

const TEXTURES: Array<{ name: string; svg: () => string; blendMode: BlendMode; opacity: number }> = [
  { name: 'Rainbow holo', svg: rainbowSvg, blendMode: 'color-dodge', opacity: 55 },
  { name: 'Starlight sparkle', svg: sparkleSvg, blendMode: 'screen', opacity: 80 },
  { name: 'Brushed foil', svg: brushedSvg, blendMode: 'overlay', opacity: 45 },
];

// ───────────── architects ─────────────

const CLASSIC: ArchitectLayout = {
  art: { x: 7, y: 11, w: 86, h: 55 },
  name: { x: 8, y: 3.4, w: 84, size: 6.2, align: 'left', colour: '#ffffff' },
  class: { x: 8, y: 69.2, w: 84, size: 4.2, align: 'left', colour: '#e4e4e7' },
  value: { x: 8, y: 87.2, w: 84, size: 6.4, align: 'right', colour: '#ffffff' },
};
const GILDED: ArchitectLayout = {
  art: { x: 5.5, y: 4.5, w: 89, h: 70 },
  name: { x: 7, y: 77.5, w: 86, size: 6.6, align: 'center', colour: '#fde68a' },
  class: { x: 7, y: 85.6, w: 86, size: 3.8, align: 'center', colour: '#fef3c7' },
  value: { x: 7, y: 90.6, w: 86, size: 5.2, align: 'center', colour: '#ffffff' },
};

const pctX = (v: number) => (v / 100) * W;
const pctY = (v: number) => (v / 100) * H;

/** A frame with a transparent window exactly where the layout puts the art. */
function frameSvg(layout: ArchitectLayout, kind: 'classic' | 'gilded') {
  const a = layout.art;
  const [x, y, w, h] = [pctX(a.x), pctY(a.y), pctX(a.w), pctY(a.h)];
  const rw = kind === 'classic' ? 18 : 28;
  const outer = `M40 0H${W - 40}Q${W} 0 ${W} 40V${H - 40}Q${W} ${H} ${W - 40} ${H}H40Q0 ${H} 0 ${H - 40}V40Q0 0 40 0Z`;
  const hole = `M${x + rw} ${y}H${x + w - rw}Q${x + w} ${y} ${x + w} ${y + rw}V${y + h - rw}Q${x + w} ${y + h} ${x + w - rw} ${y + h}H${x + rw}Q${x} ${y + h} ${x} ${y + h - rw}V${y + rw}Q${x} ${y} ${x + rw} ${y}Z`;
  if (kind === 'classic') {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
      <defs>
        <linearGradient id="body" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#27272a"/><stop offset="1" stop-color="#09090b"/></linearGradient>
        <linearGradient id="edge" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#a1a1aa"/><stop offset=".5" stop-color="#3f3f46"/><stop offset="1" stop-color="#d4d4d8"/></linearGradient>
      </defs>
      <path d="${outer} ${hole}" fill-rule="evenodd" fill="url(#body)"/>
      <path d="${outer}" fill="none" stroke="url(#edge)" stroke-width="14"/>
      <path d="${hole}" fill="none" stroke="#52525b" stroke-width="6"/>
      <rect x="40" y="${pctY(2)}" width="${W - 80}" height="${pctY(7)}" rx="14" fill="#18181b" stroke="#3f3f46" stroke-width="3"/>
      <rect x="40" y="${pctY(68)}" width="${W - 80}" height="${pctY(6.5)}" rx="12" fill="#18181b" stroke="#3f3f46" stroke-width="3"/>
      <rect x="40" y="${pctY(76)}" width="${W - 80}" height="${pctY(9)}" rx="12" fill="#111113" opacity=".9"/>
      <line x1="60" y1="${pctY(80.5)}" x2="${W - 60}" y2="${pctY(80.5)}" stroke="#3f3f46" stroke-width="2" stroke-dasharray="6 8"/>
      <rect x="40" y="${pctY(86)}" width="${W - 80}" height="${pctY(8.5)}" rx="14" fill="#18181b" stroke="#52525b" stroke-width="3"/>
    </svg>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <defs>
      <linearGradient id="gold" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#fde68a"/><stop offset=".25" stop-color="#b45309"/><stop offset=".5" stop-color="#fcd34d"/>
        <stop offset=".75" stop-color="#92400e"/><stop offset="1" stop-color="#fef3c7"/>
      </linearGradient>
      <linearGradient id="plate" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#292524"/><stop offset="1" stop-color="#0c0a09"/></linearGradient>
    </defs>
    <path d="${outer} ${hole}" fill-rule="evenodd" fill="url(#plate)"/>
    <path d="${outer}" fill="none" stroke="url(#gold)" stroke-width="22"/>
    <path d="${hole}" fill="none" stroke="url(#gold)" stroke-width="10"/>
    <path d="M${W / 2 - 120} ${pctY(76.2)}H${W / 2 + 120}" stroke="url(#gold)" stroke-width="3"/>
    <path d="M${W / 2 - 200} ${pctY(89.6)}H${W / 2 + 200}" stroke="url(#gold)" stroke-width="2" opacity=".8"/>
    <circle cx="${W / 2}" cy="${pctY(76.2)}" r="9" fill="url(#gold)"/>
  </svg>`;
}

// ───────────── artwork ─────────────

export const PALETTES = [
  ['#0f172a', '#7c3aed', '#f472b6', '#fde68a'],
  ['#052e16', '#16a34a', '#86efac', '#fef9c3'],
  ['#0c4a6e', '#0ea5e9', '#a5f3fc', '#f0abfc'],
  ['#450a0a', '#dc2626', '#fb923c', '#fef08a'],
  ['#1e1b4b', '#4f46e5', '#22d3ee', '#e0e7ff'],
  ['#3b0764', '#c026d3', '#f0abfc', '#fdf4ff'],
  ['#422006', '#ca8a04', '#fde047', '#fefce8'],
  ['#022c22', '#0d9488', '#5eead4', '#fda4af'],
];

/** An abstract scene: sky gradient, a sun or moon, layered hills, a creature-like emblem. */
function artSvg(i: number) {
  const r = rng(1000 + i * 17);
  const [bg, mid, hi, glow] = PALETTES[i % PALETTES.length]!;
  const sunX = 150 + r() * 450;
  const sunY = 150 + r() * 250;
  let hills = '';
  for (let layer = 0; layer < 4; layer++) {
    const base = 560 + layer * 120;
    let d = `M0 ${H}L0 ${base}`;
    for (let x = 0; x <= W; x += 75) d += `L${x} ${base - r() * (160 - layer * 25)}`;
    d += `L${W} ${H}Z`;
    hills += `<path d="${d}" fill="${layer % 2 ? mid : bg}" opacity="${0.55 + layer * 0.15}"/>`;
  }
  let stars = '';
  for (let s = 0; s < 60; s++) {
    stars += `<circle cx="${(r() * W).toFixed(0)}" cy="${(r() * 520).toFixed(0)}" r="${(r() * 2.4).toFixed(1)}" fill="${glow}" opacity="${(0.3 + r() * 0.7).toFixed(2)}"/>`;
  }
  const points = 5 + (i % 4);
  let star = '';
  for (let p = 0; p < points * 2; p++) {
    const ang = (Math.PI * p) / points - Math.PI / 2;
    const rad = p % 2 ? 70 : 170;
    star += `${p ? 'L' : 'M'}${(W / 2 + Math.cos(ang) * rad).toFixed(1)} ${(560 + Math.sin(ang) * rad).toFixed(1)}`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <defs>
      <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${bg}"/><stop offset=".6" stop-color="${mid}"/><stop offset="1" stop-color="${hi}"/></linearGradient>
      <radialGradient id="sun"><stop offset="0" stop-color="${glow}"/><stop offset=".5" stop-color="${hi}" stop-opacity=".7"/><stop offset="1" stop-color="${hi}" stop-opacity="0"/></radialGradient>
      <linearGradient id="em" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${glow}"/><stop offset="1" stop-color="${mid}"/></linearGradient>
    </defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>${stars}
    <circle cx="${sunX}" cy="${sunY}" r="${140 + r() * 80}" fill="url(#sun)"/>
    <circle cx="${sunX}" cy="${sunY}" r="${50 + r() * 30}" fill="${glow}"/>
    ${hills}
    <path d="${star}Z" fill="url(#em)" stroke="${glow}" stroke-width="6" opacity=".92" transform="rotate(${(r() * 30 - 15).toFixed(1)} ${W / 2} 560)"/>
    <circle cx="${W / 2}" cy="560" r="42" fill="${bg}" stroke="${glow}" stroke-width="5"/>
  </svg>`;
}

const ARTWORKS = 12;

// ───────────── cards ─────────────

const CLASSES = [
  { name: 'Common', colour: '#a1a1aa', sortOrder: 10, texture: null, value: [25, 150], stock: [200, 500] },
  { name: 'Uncommon', colour: '#22c55e', sortOrder: 20, texture: 'Brushed foil', value: [100, 800], stock: [80, 200] },
  { name: 'Rare', colour: '#3b82f6', sortOrder: 30, texture: 'Rainbow holo', value: [800, 5000], stock: [20, 60] },
  { name: 'Epic', colour: '#a855f7', sortOrder: 40, texture: 'Rainbow holo', value: [5000, 20000], stock: [5, 15] },
  { name: 'Legendary', colour: '#f59e0b', sortOrder: 50, texture: 'Starlight sparkle', value: [20000, 50000], stock: [1, 3] },
] as const;

const SETS = [
  { name: 'Nebula Drift', architect: 'Classic', words: ['Comet', 'Void', 'Nova', 'Pulsar', 'Quasar', 'Orbit', 'Eclipse'] },
  { name: 'Iron Bloom', architect: 'Classic', words: ['Thorn', 'Gear', 'Rust', 'Petal', 'Anvil', 'Ivy', 'Forge'] },
  { name: 'Tidal Myths', architect: 'Classic', words: ['Kraken', 'Pearl', 'Siren', 'Reef', 'Current', 'Abyss', 'Coral'] },
] as const;
const TITLES = ['Warden', 'Wanderer', 'Herald', 'Sentinel', 'Oracle', 'Drake', 'Spirit', 'Knight', 'Seer', 'Golem', 'Sprite', 'Titan'];
// Per set of 28: 12 common, 8 uncommon, 5 rare, 2 epic, 1 legendary.
const CLASS_PLAN = [...Array(12).fill(0), ...Array(8).fill(1), ...Array(5).fill(2), ...Array(2).fill(3), 4] as number[];

const DESCRIPTIONS = [
  'Found drifting at the edge of the map, humming a song nobody taught it.',
  'Keeps watch while the vault sleeps. Never blinks.',
  'Collectors argue about its origin; nobody argues about its shine.',
  'Printed in a short run and rarely seen outside a sleeve.',
  'Its foil catches light you did not know was there.',
  'Said to bring luck to whoever opens it last.',
];

export async function seedCatalog(deps: Deps): Promise<void> {
  const { db } = deps;
  const storage = storageFor(deps.config.dataDir);
  const store = async (svg: string) => (await storeImage(db, storage, { data: await png(svg), actorId: null })).upload.key;

  // Textures (found by name, so re-runs reuse them).
  const textureIds = new Map<string, string>();
  for (const t of TEXTURES) {
    const [found] = await db.select({ id: textures.id }).from(textures).where(and(eq(textures.name, t.name), isNull(textures.archivedAt)));
    if (found) {
      textureIds.set(t.name, found.id);
      continue;
    }
    const imageKey = await store(t.svg());
    const [row] = await db.insert(textures).values({ name: t.name, imageKey, blendMode: t.blendMode, opacity: t.opacity }).returning();
    textureIds.set(t.name, row!.id);
  }

  // Classes: the unique lower(name) index makes this idempotent.
  for (const c of CLASSES) {
    await db
      .insert(cardClasses)
      .values({ name: c.name, colour: c.colour, sortOrder: c.sortOrder, defaultTextureId: c.texture ? textureIds.get(c.texture)! : null })
      .onConflictDoNothing();
  }
  const classRows = await db.select({ id: cardClasses.id, name: cardClasses.name }).from(cardClasses);
  const classId = (name: string) => classRows.find((r) => r.name.toLowerCase() === name.toLowerCase())!.id;

  const architectIds = new Map<string, string>();
  for (const [name, layout, kind] of [
    ['Classic', CLASSIC, 'classic'],
    ['Gilded', GILDED, 'gilded'],
  ] as const) {
    const [found] = await db.select({ id: architects.id }).from(architects).where(and(eq(architects.name, name), isNull(architects.archivedAt)));
    if (found) {
      architectIds.set(name, found.id);
      continue;
    }
    const frameImageKey = await store(frameSvg(layout, kind));
    const [row] = await db.insert(architects).values({ name, frameImageKey, layout }).returning();
    architectIds.set(name, row!.id);
  }

  // Cards: skip the whole step when the demo sets are already there.
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(cards)
    .where(sql`${cards.setName} in ('Nebula Drift', 'Iron Bloom', 'Tidal Myths')`);
  if (n >= SETS.length * CLASS_PLAN.length) {
    // Demo data seeded before the frames followed rarity: only its Legendaries keep the gold frame.
    await db
      .update(cards)
      .set({ architectId: architectIds.get('Classic')! })
      .where(
        sql`${cards.setName} = 'Tidal Myths' and ${cards.architectId} = ${architectIds.get('Gilded')!} and ${cards.classId} <> ${classId('Legendary')}`,
      );
    return seedGradedCards(deps);
  }

  const art: string[] = [];
  for (let i = 0; i < ARTWORKS; i++) art.push(await store(artSvg(i)));

  const r = rng(42);
  const between = ([lo, hi]: readonly [number, number]) => Math.round(lo + r() * (hi - lo));
  const rows: Array<typeof cards.$inferInsert> = [];
  SETS.forEach((set, si) => {
    CLASS_PLAN.forEach((ci, idx) => {
      const cls = CLASSES[ci]!;
      const word = set.words[idx % set.words.length]!;
      const title = TITLES[(idx * 5 + si * 3) % TITLES.length]!;
      // Legendary top cards of each set reach $500.
      const valueCents = ci === 4 && si === 0 ? 50000 : between(cls.value);
      rows.push({
        name: `${word} ${title}`,
        setName: set.name,
        number: idx + 1,
        classId: classId(cls.name),
        // The gold frame is the top tier's (Legendary, itself amber): a Common in gold read as a
        // Legendary (issue 41 item 8), so frames follow the one rarity scale, not the set.
        architectId: architectIds.get(ci === 4 ? 'Gilded' : set.architect)!,
        imageKey: art[(si * 28 + idx) % ARTWORKS]!,
        valueCents: ci === 0 && idx === 0 && si === 0 ? 25 : valueCents,
        description: DESCRIPTIONS[(idx + si) % DESCRIPTIONS.length]!,
        active: true,
        stock: between(cls.stock),
      });
    });
  });
  await db.transaction(async (tx) => {
    const stockOf = new Map(rows.map((r) => [`${r.setName}#${r.number}`, r.stock]));
    const withoutStock = rows.map(({ stock: _stock, ...r }) => r);
    const inserted = await tx
      .insert(cards)
      .values(withoutStock)
      .onConflictDoNothing({ target: [cards.setName, cards.number] })
      .returning({ id: cards.id, setName: cards.setName, number: cards.number, valueCents: cards.valueCents });
    await recordValues(tx, inserted.map((c) => ({ cardId: c.id, valueCents: c.valueCents })), 'seed');
    // Stock only through the inventory, which logs it.
    for (const c of inserted) {
      const stock = stockOf.get(`${c.setName}#${c.number}`) ?? 0;
      if (stock > 0) await changeStock(tx, { cardId: c.id, delta: stock, reason: 'initial', actorId: null, note: 'Demo seed' });
    }
  });
  await seedGradedCards(deps);
}

export const catalogSeedStep: SeedStep = { name: 'catalog', run: seedCatalog };
