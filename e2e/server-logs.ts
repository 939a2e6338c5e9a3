import path from 'node:path';

/** Where each e2e server's output goes (test-results is cleared before the servers start). */
export const serverLog = (name: string) => path.join(import.meta.dirname, '..', 'test-results', `server-${name}.log`);
export const SERVER_LOGS = [serverLog('main'), serverLog('maintenance')];
