#!/usr/bin/env node
// Writes schema/graph.schema.json from the loader's readers (dist/config/graph-json-schema.js, so
// run it after `tsc -b`; the package's build does). With --check it only says whether the file
// is current, and exits 1 when it is not. The file is committed: editors find it in a fresh
// clone, and a change of the format shows in review.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { graphJsonSchemaText } from '../dist/config/graph-json-schema.js';

const file = fileURLToPath(new URL('../schema/graph.schema.json', import.meta.url));
const text = graphJsonSchemaText();
let current = '';
try {
  current = readFileSync(file, 'utf8');
} catch {
  // A missing file is stale.
}
if (process.argv.includes('--check')) {
  if (current !== text) {
    console.error(`${file} is stale: run npm run build -w @troupe/runtime`);
    process.exit(1);
  }
} else if (current !== text) {
  // Written only when it changed, so a build does not touch an up-to-date file.
  writeFileSync(file, text);
  console.log(`wrote ${file}`);
}
