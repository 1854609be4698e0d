/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process, one after another, so figures from
 * different areas do not disturb each other. Each prints its own figures; nothing here asserts a time.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const only = process.argv.slice(2);
const dir = new URL('.', import.meta.url).pathname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
if (failed) {
  console.error(`${failed} benchmark file(s) failed`);
  process.exit(1);
}
