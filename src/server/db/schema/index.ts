// Every table, one file per domain. drizzle.config.ts and the db client read this barrel.
export * from './platform.ts';
export * from './catalog.ts';
export * from './auth.ts';
export * from './audit.ts';
export * from './mail.ts';
export * from './wallet.ts';
export * from './shop.ts';
export * from './buyback.ts';
export * from './inventory.ts';
export * from './shipping.ts';
