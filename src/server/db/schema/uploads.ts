import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Uploads (modules/uploads): images stored once per content hash, with their WebP variants. */

export type UploadVariantRow = { file: string; width: number; height: number; bytes: number };

/**
 * One uploaded image. `key` is the SHA-256 of the original bytes, so uploading the same file
 * twice yields the same row; the stored files are WebP variants named `<key>-<variant>.webp`.
 */
export const uploads = pgTable('uploads', {
  key: text('key').primaryKey(),
  mime: text('mime').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  bytes: integer('bytes').notNull(),
  variants: jsonb('variants').$type<{ thumb: UploadVariantRow; full: UploadVariantRow }>().notNull(),
  createdBy: text('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
