// Every table, one file per owning module (ADR 0013): schema/X.ts is defined and written by
// modules/X (jobs.ts by src/server/jobs). drizzle.config.ts and the db client read this barrel.
export * from './platform.ts';
export * from './settings.ts';
export * from './monitoring.ts';
export * from './jobs.ts';
export * from './uploads.ts';
export * from './catalog.ts';
export * from './auth.ts';
export * from './audit.ts';
export * from './mail.ts';
export * from './wallet.ts';
export * from './payments.ts';
export * from './promo.ts';
export * from './responsible-play.ts';
export * from './fairness.ts';
export * from './shop.ts';
export * from './buyback.ts';
export * from './inventory.ts';
export * from './collection.ts';
export * from './drops.ts';
export * from './shipping.ts';
export * from './notifications.ts';
export * from './referrals.ts';
export * from './dashboard.ts';
export * from './books.ts';
export * from './market.ts';
export * from './vault-proof.ts';
