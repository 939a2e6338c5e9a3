import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { allowConsoleError, expect, test } from './fixtures.ts';

/**
 * An admin builds a card from scratch — class, texture, architect, card with artwork — and
 * the card shows up on the public /cards page drawn the way the preview showed it.
 */

test.describe.configure({ mode: 'serial' });

const run = randomBytes(3).toString('hex');
const names = {
  cls: `E2E Mythic ${run}`,
  texture: `E2E Foil ${run}`,
  architect: `E2E Frame ${run}`,
  card: `E2E Dragon ${run}`,
  set: `E2E Set ${run}`,
};

const png = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();
const artSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="500" height="700"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c3aed"/><stop offset="1" stop-color="#f472b6"/></linearGradient></defs><rect width="500" height="700" fill="url(#g)"/><circle cx="250" cy="330" r="140" fill="#fde68a"/></svg>`;
const foilSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="500" height="700"><defs><linearGradient id="r" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f0f"/><stop offset=".5" stop-color="#0ff"/><stop offset="1" stop-color="#ff0"/></linearGradient></defs><rect width="500" height="700" fill="url(#r)"/></svg>`;
const frameSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="500" height="700"><path fill-rule="evenodd" fill="#18181b" d="M0 0H500V700H0Z M40 80H460V460H40Z"/></svg>`;

async function chooseFile(page: import('@playwright/test').Page, label: string, name: string, buffer: Buffer, mimeType = 'image/png') {
  await page.getByLabel(label, { exact: true }).setInputFiles({ name, mimeType, buffer });
}

test('admin creates a class, texture, architect and card; it appears on /cards', async ({ adminPage: page }) => {
  // Class
  await page.goto('/admin/class/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New class' })).toBeVisible();
  await expect(page.getByText('A class is a rarity tier')).toBeVisible();
  await page.getByRole('button', { name: 'Create class' }).click();
  await expect(page.getByText('Name is required.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(names.cls);
  await page.getByRole('textbox', { name: 'Colour', exact: true }).fill('#E11D48');
  await page.getByRole('spinbutton', { name: 'Display order', exact: true }).fill('99');
  await page.getByRole('button', { name: 'Create class' }).click();
  await expect(page).toHaveURL(/\/admin\/class\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: `Class: ${names.cls}` })).toBeVisible();

  // Texture — first a renamed text file, which the server refuses.
  await page.goto('/admin/textures/new');
  await expect(page.getByText('A texture is the foil overlay')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(names.texture);
  allowConsoleError(page, /status of 400/);
  await chooseFile(page, 'Foil image', 'foil.png', Buffer.from('definitely not an image'));
  await expect(page.getByText(/not a PNG, JPEG or WebP image/)).toBeVisible();
  await chooseFile(page, 'Foil image', 'foil.png', await png(foilSvg));
  await expect(page.getByText('Uploading…')).toBeHidden();
  await page.getByRole('combobox', { name: 'Blend mode', exact: true }).selectOption('color-dodge');
  await page.getByRole('button', { name: 'Create texture' }).click();
  await expect(page).toHaveURL(/\/admin\/textures\/[0-9a-f-]{36}$/);

  // Architect
  await page.goto('/admin/architects/new');
  await expect(page.getByText('An architect is a card frame template')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(names.architect);
  await chooseFile(page, 'Frame image', 'frame.png', await png(frameSvg));
  await expect(page.getByText('Uploading…')).toBeHidden();
  await page.getByRole('button', { name: 'Create architect' }).click();
  await expect(page).toHaveURL(/\/admin\/architects\/[0-9a-f-]{36}$/);

  // Card
  await page.goto('/admin/cards/new');
  await expect(page.getByText('A card is one catalog entry')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(names.card);
  await page.getByRole('combobox', { name: 'Set', exact: true }).fill(names.set);
  await page.getByRole('spinbutton', { name: 'Number', exact: true }).fill('7');
  await page.getByRole('combobox', { name: 'Class', exact: true }).selectOption({ label: names.cls });
  await page.getByRole('combobox', { name: 'Architect (frame)', exact: true }).selectOption({ label: names.architect });
  await page.getByRole('combobox', { name: 'Texture (foil)', exact: true }).selectOption({ label: names.texture });
  await chooseFile(page, 'Artwork', 'art.png', await png(artSvg));
  await expect(page.getByText('Uploading…')).toBeHidden();
  await page.getByRole('textbox', { name: 'Market value (USD)', exact: true }).fill('123.45');
  await page.getByRole('spinbutton', { name: 'Starting stock', exact: true }).fill('4');
  await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Made by the end-to-end test.');

  const preview = page.getByRole('complementary', { name: 'Preview' }).getByRole('img', { name: new RegExp(names.card) });
  await expect(preview).toHaveAttribute('aria-label', `${names.card}, ${names.cls}, worth $123.45`);
  const previewLook = await lookOf(preview);
  await page.getByRole('button', { name: 'Create card' }).click();
  await expect(page).toHaveURL(/\/admin\/cards\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Stock: 4 in the vault' })).toBeVisible();

  // Public /cards
  await page.goto(`/cards?q=${encodeURIComponent(names.card)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Cards' })).toBeVisible();
  const tile = page.getByRole('list', { name: 'Cards' }).getByRole('img', { name: new RegExp(names.card) });
  await expect(tile).toHaveAttribute('aria-label', `${names.card}, ${names.cls}, worth $123.45`);
  // Same frame, artwork, foil and glow as the preview (the grid uses the thumbnail variant).
  const tileLook = await lookOf(tile);
  expect(tileLook.glow).toBe(previewLook.glow);
  expect(tileLook.frame.replace('-thumb', '-full')).toBe(previewLook.frame);
  expect(tileLook.art.replace('-thumb', '-full')).toBe(previewLook.art);
  expect(tileLook.holo.replace('-thumb', '-full')).toBe(previewLook.holo);
  expect(tileLook.blend).toBe('color-dodge');

  await page.getByRole('button', { name: new RegExp(`${names.card}.*Open details`) }).click();
  const dialog = page.getByRole('dialog', { name: names.card });
  await expect(dialog).toContainText('$123.45');
  await expect(dialog).toContainText('Made by the end-to-end test.');
  await expect(dialog).toContainText('In the vault');
});

async function lookOf(card: import('@playwright/test').Locator) {
  return card.evaluate((el) => {
    const art = el.querySelector<HTMLImageElement>('.pv-card__art img')?.getAttribute('src') ?? '';
    const frame = el.querySelector<HTMLImageElement>('.pv-card__frame')?.getAttribute('src') ?? '';
    const holoEl = el.querySelector<HTMLElement>('.pv-card__holo');
    return {
      art,
      frame,
      holo: holoEl?.style.backgroundImage.replace(/^url\("?|"?\)$/g, '') ?? '',
      blend: holoEl?.style.mixBlendMode ?? '',
      glow: (el as HTMLElement).style.getPropertyValue('--glow'),
    };
  });
}
