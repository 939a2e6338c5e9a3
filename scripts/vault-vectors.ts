import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { vaultVectors } from '../src/server/modules/vault-proof/vectors.ts';

/** Writes verifier/vectors/vault-*.json (npm run vault:vectors); verifier.test.ts checks they are current. */
const dir = path.resolve(import.meta.dirname, '../verifier/vectors');
for (const [name, data] of Object.entries(vaultVectors())) writeFileSync(path.join(dir, name), `${JSON.stringify(data, null, 2)}\n`);
process.stdout.write(`wrote ${Object.keys(vaultVectors()).length} vault vectors to ${dir}\n`);
