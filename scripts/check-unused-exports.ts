/**
 * The unused-export check of `npm run lint` (issue 15). TypeScript 7 has no JS API, so knip and ts-prune cannot
 * run here; this reads the files as text instead. Every name that lib/, components/ or entrypoints/ exports (tests
 * left out) must be mentioned, as a word, by some other file of the repo (lib, components, entrypoints, tests,
 * bench, scripts, demo). A name only its own file uses need not be exported; a name nobody uses can go.
 *
 *   tsx scripts/check-unused-exports.ts   # prints file:line name for each, exits 1 when there are any
 *
 * Being textual, it errs on the quiet side: a name that happens to appear as a word elsewhere (in a comment, or as
 * another thing's name) counts as used.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where exports are checked. */
export const EXPORTING_DIRS = ['lib', 'components', 'entrypoints'];
/** Where a mention counts as a use. */
export const USING_DIRS = ['lib', 'components', 'entrypoints', 'tests', 'bench', 'scripts', 'demo'];

const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs|html)$/;
const TEST = /\.test\.(ts|tsx)$/;
const SKIPPED_DIRS = new Set(['node_modules', '.output', '.wxt', 'generated']);

/** One exported name that no other file mentions. */
export interface UnusedExport {
  /** Path relative to the root, with forward slashes. */
  file: string;
  line: number;
  name: string;
}

/** The exported names of a module's text, each with its 1-based line: declarations and `export { … }` lists. */
export function exportedNames(text: string): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const declaration =
    /^[ \t]*export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*?|const\s+enum|const|let|var|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm;
  for (const match of text.matchAll(declaration)) found.push({ name: match[1], line: lineAt(match.index) });
  const list = /^[ \t]*export\s+(?:type\s+)?\{([^}]*)\}/gm;
  for (const match of text.matchAll(list)) {
    for (const item of match[1].split(',')) {
      const words = item
        .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
        .trim()
        .split(/\s+/)
        .filter((w) => w && w !== 'type');
      // `a`, `a as b` (exported as b), `default as b`.
      const name = words.length >= 3 && words[words.length - 2] === 'as' ? words[words.length - 1] : words[0];
      if (name && name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name)) found.push({ name, line: lineAt(match.index) });
    }
  }
  return found;
}

function sourceFiles(root: string, dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(root, path);
    return entry.isFile() && SOURCE.test(entry.name) ? [path] : [];
  });
}

const words = (text: string) => new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);

/** Every name exported from the exporting folders under `root` that no other file under `root` mentions. */
export function findUnusedExports(root: string): UnusedExport[] {
  const files = [...new Set(USING_DIRS.flatMap((dir) => sourceFiles(root, dir)))];
  const texts = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  const wordsOf = new Map([...texts].map(([file, text]) => [file, words(text)]));
  const exporting = files.filter(
    (file) => EXPORTING_DIRS.some((dir) => file.startsWith(`${dir}/`)) && /\.(ts|tsx)$/.test(file) && !TEST.test(file),
  );
  const unused: UnusedExport[] = [];
  for (const file of exporting) {
    for (const { name, line } of exportedNames(texts.get(file) ?? '')) {
      const used = files.some((other) => other !== file && wordsOf.get(other)?.has(name));
      if (!used) unused.push({ file: relative(root, join(root, file)).replaceAll('\\', '/'), line, name });
    }
  }
  return unused;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const unused = findUnusedExports(process.cwd());
  for (const { file, line, name } of unused) console.log(`${file}:${line} ${name}`);
  if (unused.length > 0) {
    console.error(`${unused.length} exported name(s) that no other file uses: un-export them, or delete them.`);
    process.exit(1);
  }
  console.log('check-unused-exports: every export is used by another file.');
}
