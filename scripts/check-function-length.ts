/**
 * The function-length check of `npm run lint` (issue 48): no function, method or closure in the shipped code
 * (lib/, components/, entrypoints/; tests left out) spans 200 lines or more, counted as a reader
 * sees them, from its first line to its last, comments and blank lines included.
 *
 *   tsx scripts/check-function-length.ts   # prints file:line name (lines) for each, exits 1 when there are any
 *
 * Why not Biome's complexity/noExcessiveLinesPerFunction: Biome 2.6.8 counts neither comments nor (whatever
 * `skipBlankLines` says) blank lines between statements, so it calls the 215-line createSettingsStore 174 lines.
 * Why not the TypeScript compiler API: TypeScript 7 has none. The parser is @swc/core, which the layers check
 * already uses.
 *
 * A function may be longer when the comments just above it say why: `long-function: <why>`, in a `//` line or its
 * JSDoc (for a numbered procedure that reads as one, or a script whose bytes are budgeted).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseSync } from '@swc/core';

/** A function of this many lines or more fails. */
export const MAX_FUNCTION_LINES = 200;

/** Where functions are measured. */
const CHECKED_DIRS = ['lib', 'components', 'entrypoints'];
const SOURCE = /\.(ts|tsx)$/;
const LEFT_OUT = /\.test\.(ts|tsx)$|\.d\.ts$/;
const SKIPPED_DIRS = new Set(['node_modules', '.output', '.wxt', 'generated']);

/** The comment that lets a function be longer, and must say why. */
const EXCEPTION = /^\s*(?:\/\/|\*)\s*long-function:\s*\S/;
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*)/;

/** Whether the comment lines just above line `first` (1-based) say why the function is long. */
function saysWhy(textLines: readonly string[], first: number): boolean {
  for (let i = first - 2; i >= 0 && COMMENT_LINE.test(textLines[i]); i--) if (EXCEPTION.test(textLines[i])) return true;
  return false;
}

/** SWC's node types that are a function's body with its head. */
const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassMethod',
  'PrivateMethod',
  'Constructor',
  'MethodProperty',
  'GetterProperty',
  'SetterProperty',
]);

/** One function that is too long. */
export interface LongFunction {
  /** Path relative to the root, with forward slashes. */
  file: string;
  /** Its first line (1-based). */
  line: number;
  /** Its name as the code gives it (the declaration's, the variable's, the property's), or `(anonymous)`. */
  name: string;
  lines: number;
}

interface SwcNode {
  type?: string;
  span?: { start: number; end: number };
  [key: string]: unknown;
}

/** The functions of 200 lines or more in one module's text, but those whose line above says why. */
export function longFunctions(text: string, file: string): LongFunction[] {
  const bytes = Buffer.from(text, 'utf8');
  const lineStarts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) lineStarts.push(i + 1);
  // SWC's spans are 1-based byte offsets into the text, the end exclusive.
  const lineOf = (offset: number) => {
    const index = offset - 1;
    if (index < 0 || index > bytes.length) throw new Error(`${file}: a span outside the text (${offset})`);
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= index) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  const textLines = text.split('\n');
  const module = parseSync(text, { syntax: 'typescript', tsx: file.endsWith('.tsx'), comments: false });
  const found: LongFunction[] = [];
  const visit = (node: unknown, name: string | undefined) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, name);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const n = node as SwcNode;
    if (n.type && FUNCTION_TYPES.has(n.type) && n.span) {
      const first = lineOf(n.span.start);
      const lines = lineOf(n.span.end - 1) - first + 1;
      const own = nameOf(n) ?? name ?? '(anonymous)';
      if (lines >= MAX_FUNCTION_LINES && !saysWhy(textLines, first)) {
        found.push({ file, line: first, name: own, lines });
      }
    }
    const childName = nameOf(n) ?? name;
    for (const [key, value] of Object.entries(n)) if (key !== 'span' && value && typeof value === 'object') visit(value, childName);
  };
  visit(module.body, undefined);
  return found;
}

/** The name a node gives what it holds: a declaration's, a variable's, a property's or method's. */
function nameOf(node: SwcNode): string | undefined {
  for (const key of ['identifier', 'id', 'key']) {
    const named = node[key] as { type?: string; value?: unknown } | undefined;
    if (named && (named.type === 'Identifier' || named.type === 'PrivateName') && typeof named.value === 'string') return named.value;
  }
  return undefined;
}

/** Every shipped module's long functions, under `root`. */
export function findLongFunctions(root: string): LongFunction[] {
  const found: LongFunction[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path);
        continue;
      }
      const file = relative(root, path).split('\\').join('/');
      if (SOURCE.test(entry.name) && !LEFT_OUT.test(file)) found.push(...longFunctions(readFileSync(path, 'utf8'), file));
    }
  };
  for (const dir of CHECKED_DIRS) walk(join(root, dir));
  return found;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const found = findLongFunctions(process.cwd());
  for (const { file, line, name, lines } of found) {
    console.error(`${file}:${line} ${name} is ${lines} lines (under ${MAX_FUNCTION_LINES}, or say why above it: long-function: …)`);
  }
  if (found.length > 0) process.exit(1);
}
