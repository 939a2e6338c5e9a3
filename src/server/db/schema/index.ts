// Every table, one file per domain. drizzle.config.ts and the db client read this barrel.
export * from './platform.ts';
