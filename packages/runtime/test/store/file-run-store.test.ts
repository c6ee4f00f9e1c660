/**
 * The run store contract (see src/testing/run-store-contract.ts) holds for the file run store, each test in a
 * fresh temporary directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileRunStore } from '../../src/index.js';
import { runStoreContract } from '../../src/testing.js';

runStoreContract('files', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'troupe-runs-'));
  return { store: createFileRunStore(dir), close: () => rm(dir, { recursive: true, force: true }) };
});
