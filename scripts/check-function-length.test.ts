import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findLongFunctions, longFunctions, MAX_FUNCTION_LINES } from './check-function-length';

/** A function declaration spanning `lines` lines, first to last, its body `bodyLine(i)`. */
function declaration(name: string, lines: number, bodyLine = (i: number) => `  const v${i} = ${i};`): string {
  return [`export function ${name}() {`, ...Array.from({ length: lines - 2 }, (_, i) => bodyLine(i)), '}', ''].join('\n');
}

describe('longFunctions', () => {
  it('fails a function of 200 lines and passes one of 199', () => {
    expect(MAX_FUNCTION_LINES).toBe(200);
    expect(longFunctions(declaration('long', 200), 'lib/a.ts')).toEqual([{ file: 'lib/a.ts', line: 1, name: 'long', lines: 200 }]);
    expect(longFunctions(declaration('short', 199), 'lib/a.ts')).toEqual([]);
  });

  it('counts comments and blank lines, as a reader reads them', () => {
    const text = declaration('airy', 200, (i) => (i % 3 === 0 ? '' : i % 3 === 1 ? '  // why' : `  void ${i};`));
    expect(longFunctions(text, 'lib/a.ts')).toMatchObject([{ name: 'airy', lines: 200 }]);
  });

  it('finds closures, methods and arrows inside other functions, each by its own name', () => {
    const inner = declaration('x', 200).replace('export function x() {', 'const inner = () => {').replace(/}\n$/, '};\n');
    const text = [
      'export function outer() {',
      ...inner.split('\n').map((line) => `  ${line}`),
      '  return inner;',
      '}',
      'export class Holder {',
      ...declaration('x', 200)
        .replace('export function x() {', 'method() {')
        .split('\n')
        .map((line) => `  ${line}`),
      '}',
      'export const parts = {',
      ...declaration('x', 200)
        .replace('export function x() {', 'part() {')
        .split('\n')
        .map((line) => `  ${line}`),
      '};',
      '',
    ].join('\n');
    const found = longFunctions(text, 'components/b.tsx').map(({ name, lines }) => ({ name, lines }));
    // The outer function holds a 200-line closure, so it is long too.
    expect(found).toEqual([
      { name: 'outer', lines: 204 },
      { name: 'inner', lines: 200 },
      { name: 'method', lines: 200 },
      { name: 'part', lines: 200 },
    ]);
  });

  it('reads TSX', () => {
    const text = declaration('View', 200, (i) => (i === 0 ? '  return (<div>' : i === 197 ? '  </div>);' : `    <p>{${i}}</p>`));
    expect(longFunctions(text, 'components/c.tsx')).toMatchObject([{ name: 'View', lines: 200 }]);
  });

  it('lets a function be longer only where the comments above it say why', () => {
    const why = `// long-function: a numbered procedure that reads as one\n${declaration('procedure', 250)}`;
    expect(longFunctions(why, 'lib/a.ts')).toEqual([]);
    const inJsDoc = `/**\n * Does it.\n *\n * long-function: its bytes are budgeted\n */\n${declaration('stub', 250)}`;
    expect(longFunctions(inJsDoc, 'lib/a.ts')).toEqual([]);
    const noReason = `// long-function:\n${declaration('procedure', 250)}`;
    expect(longFunctions(noReason, 'lib/a.ts')).toHaveLength(1);
    // A reason further up, past code, is not this function's.
    const farAbove = `// long-function: not for this one\nconst x = 1;\n${declaration('procedure', 250)}`;
    expect(longFunctions(farAbove, 'lib/a.ts')).toHaveLength(1);
  });
});

describe('npm run lint (tsx scripts/check-function-length.ts)', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  /** Runs the check in a copy of the house's layout holding `files`: its exit code and what it printed. */
  function runCheck(files: Record<string, string>): { status: number; output: string } {
    root = mkdtempSync(join(tmpdir(), 'function-length-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    for (const dir of ['lib', 'components', 'entrypoints']) mkdirSync(join(root, dir), { recursive: true });
    const tsx = resolve('node_modules/.bin/tsx');
    try {
      const output = execFileSync(tsx, [resolve('scripts/check-function-length.ts')], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
      return { status: 0, output };
    } catch (error) {
      const failed = error as { status: number; stderr: string };
      return { status: failed.status, output: failed.stderr };
    }
  }

  it('fails on a 200-line function in lib/, components/ or entrypoints/, naming it', () => {
    const result = runCheck({ 'entrypoints/thing/index.ts': declaration('setUpEverything', 200) });
    expect(result.status).toBe(1);
    expect(result.output).toContain('entrypoints/thing/index.ts:1 setUpEverything is 200 lines');
  });

  it('passes a 199-line function, and a long one in a test', () => {
    const result = runCheck({
      'lib/x/short.ts': declaration('short', 199),
      'components/x/view.test.tsx': declaration('longTest', 300),
      'scripts/long.ts': declaration('notShipped', 300),
    });
    expect(result).toEqual({ status: 0, output: '' });
  });

  it('finds nothing too long in this repository', () => {
    expect(findLongFunctions(process.cwd())).toEqual([]);
  });
});
