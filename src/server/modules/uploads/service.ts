import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { UPLOAD_MAX_BYTES, type Upload } from '../../../shared/contracts/catalog.ts';
import type { Db } from '../../db/client.ts';
import { uploads, type UploadVariantRow } from '../../db/schema/uploads.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import type { Storage } from './storage.ts';

export type ImageKind = 'image/png' | 'image/jpeg' | 'image/webp';

/** The real type of a file, from its first bytes — never from its name or declared type. */
export function sniffImage(buf: Uint8Array): ImageKind | null {
  if (buf.length >= 8 && buf[0] === 0x89 && buf[1] === 0x50 && buf[2] === 0x4e && buf[3] === 0x47 &&
      buf[4] === 0x0d && buf[5] === 0x0a && buf[6] === 0x1a && buf[7] === 0x0a) return 'image/png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  if (buf.length >= 12 && ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

function ascii(buf: Uint8Array, from: number, to: number) {
  return String.fromCharCode(...buf.subarray(from, to));
}

const SHARP_FORMAT: Record<ImageKind, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' };

/** Max dimension (px) of each stored variant. Cards are drawn at most ~700 CSS px wide. */
export const VARIANTS = { thumb: 480, full: 1400 } as const;
const MAX_INPUT_PIXELS = 40_000_000;
const MIN_DIMENSION = 16;

export const variantFile = (key: string, variant: keyof typeof VARIANTS) => `${key}-${variant}.webp`;

export function toUploadDto(row: typeof uploads.$inferSelect): Upload {
  return { key: row.key, mime: row.mime, width: row.width, height: row.height, bytes: row.bytes, variants: row.variants };
}

/**
 * Validates, re-encodes and stores one image. Every check happens before anything is written;
 * if writing fails half-way, the files this call created are removed again.
 */
export async function storeImage(
  db: Db,
  storage: Storage,
  input: { data: Buffer; actorId: string | null },
): Promise<{ upload: Upload; created: boolean }> {
  const { data } = input;
  if (data.length === 0) throw badRequest('The file is empty.', { file: ['The file is empty.'] }, 'invalid_image');
  if (data.length > UPLOAD_MAX_BYTES) {
    throw new AppError(413, 'payload_too_large', 'The image is larger than 5 MB. Resize it and try again.');
  }
  const kind = sniffImage(data);
  if (!kind) {
    throw badRequest(
      'Only PNG, JPEG and WebP images are accepted.',
      { file: ['This file is not a PNG, JPEG or WebP image (whatever its name says).'] },
      'unsupported_type',
    );
  }

  const key = createHash('sha256').update(data).digest('hex');
  const existing = await db.query.uploads.findFirst({ where: eq(uploads.key, key) });
  if (existing && (await storage.exists(existing.variants.thumb.file)) && (await storage.exists(existing.variants.full.file))) {
    return { upload: toUploadDto(existing), created: false };
  }

  let width: number;
  let height: number;
  const encoded: Record<keyof typeof VARIANTS, { buf: Buffer; info: UploadVariantRow }> = {} as never;
  try {
    const opts = { failOn: 'truncated', limitInputPixels: MAX_INPUT_PIXELS } as const;
    const meta = await sharp(data, opts).metadata();
    if (meta.format !== SHARP_FORMAT[kind]) throw new Error(`format mismatch ${meta.format} vs ${kind}`);
    // Decode every pixel once: this is what catches truncated and corrupt files. The variants are
    // then encoded from the decoded pixels rather than decoding the file again.
    const decoded = await sharp(data, opts).rotate().raw().toBuffer({ resolveWithObject: true });
    width = decoded.info.width;
    height = decoded.info.height;
    const raw = { raw: { width, height, channels: decoded.info.channels } };
    for (const [variant, max] of Object.entries(VARIANTS) as Array<[keyof typeof VARIANTS, number]>) {
      const out = await sharp(decoded.data, raw)
        .resize({ width: max, height: max, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: variant === 'thumb' ? 78 : 85, alphaQuality: 90, effort: 4 })
        .toBuffer({ resolveWithObject: true });
      encoded[variant] = {
        buf: out.data,
        info: { file: variantFile(key, variant), width: out.info.width, height: out.info.height, bytes: out.data.length },
      };
    }
  } catch (err) {
    const message = String((err as Error)?.message ?? '');
    if (/pixel limit/i.test(message)) {
      throw badRequest('The image has too many pixels (40 megapixels at most).', { file: ['The image is too large in pixels.'] }, 'invalid_image');
    }
    throw badRequest(
      'The image could not be read; it may be truncated or corrupt.',
      { file: ['The image is damaged or incomplete. Export it again and retry.'] },
      'invalid_image',
    );
  }
  if (width < MIN_DIMENSION || height < MIN_DIMENSION) {
    throw badRequest(`The image must be at least ${MIN_DIMENSION}×${MIN_DIMENSION} pixels.`, { file: ['The image is too small.'] }, 'invalid_image');
  }

  const written: string[] = [];
  try {
    for (const v of Object.values(encoded)) {
      if (await storage.exists(v.info.file)) continue;
      await storage.put(v.info.file, v.buf, 'image/webp');
      written.push(v.info.file);
    }
    const row = {
      key,
      mime: kind,
      width,
      height,
      bytes: data.length,
      variants: { thumb: encoded.thumb.info, full: encoded.full.info },
      createdBy: input.actorId,
    };
    const [saved] = await db
      .insert(uploads)
      .values(row)
      .onConflictDoUpdate({ target: uploads.key, set: { variants: row.variants } })
      .returning();
    return { upload: toUploadDto(saved!), created: !existing };
  } catch (err) {
    for (const f of written) await storage.delete(f);
    throw err;
  }
}

export const UPLOAD_FILE_RE = /^([a-f0-9]{64})-(thumb|full)\.webp$/;
