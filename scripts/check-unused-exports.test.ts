import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportedNames, findUnusedExports } from './check-unused-exports';

let root: string | undefined;

/** A repo in a temp directory with these files (path → text). */
function repo(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'unused-exports-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe('exportedNames', () => {
  it('reads every kind of export declaration and export list, with its line, and leaves default exports out', () => {
    const text = [
      'export function a() {}',
      'export async function b() {}',
      'export const C = 1;',
      'export class D {}',
      'export interface E {}',
      'export type F = string;',
      'export enum G {}',
      'export const enum H {}',
      "export { i, j as k, type L } from './x';",
      'export type { M };',
      'export default function N() {}',
      'const notExported = 1;',
    ].join('\n');
    expect(exportedNames(text)).toEqual([
      { name: 'a', line: 1 },
      { name: 'b', line: 2 },
      { name: 'C', line: 3 },
      { name: 'D', line: 4 },
      { name: 'E', line: 5 },
      { name: 'F', line: 6 },
      { name: 'G', line: 7 },
      { name: 'H', line: 8 },
      { name: 'i', line: 9 },
      { name: 'k', line: 9 },
      { name: 'L', line: 9 },
      { name: 'M', line: 10 },
    ]);
  });
});

describe('findUnusedExports', () => {
  it('reports a name no other file mentions, and not one that another file uses or a test imports', () => {
    const dir = repo({
      'lib/a.ts':
        'export function usedByLib() {}\nexport function usedByTest() {}\nexport const DEAD = 1;\nexport function onlyHere() {}\nonlyHere();\n',
      'lib/b.ts': "import { usedByLib } from './a';\nusedByLib();\n",
      'tests/e2e/x.spec.ts': "import { usedByTest } from '../../lib/a';\n",
    });
    expect(findUnusedExports(dir)).toEqual([
      { file: 'lib/a.ts', line: 3, name: 'DEAD' },
      { file: 'lib/a.ts', line: 4, name: 'onlyHere' },
    ]);
  });

  it('counts a whole word only: a longer name that contains it is not a use', () => {
    const dir = repo({
      'components/c.tsx': 'export const Card = 1;\n',
      'scripts/s.ts': 'const CardList = 2; const myCard = 3;\n',
    });
    expect(findUnusedExports(dir)).toEqual([{ file: 'components/c.tsx', line: 1, name: 'Card' }]);
  });

  it('checks lib, components and entrypoints but not tests, and counts uses in bench, scripts and demo', () => {
    const dir = repo({
      'entrypoints/e.ts': 'export const fromBench = 1;\nexport const fromDemo = 2;\nexport const fromScripts = 3;\n',
      'bench/b.bench.ts': 'fromBench;\n',
      'demo/app.js': 'fromDemo;\n',
      'scripts/s.ts': 'fromScripts;\n',
      'tests/e2e/helpers.ts': 'export const unusedTestHelper = 1;\n',
      'lib/x.test.ts': 'export const inATest = 1;\n',
    });
    expect(findUnusedExports(dir)).toEqual([]);
  });
});
