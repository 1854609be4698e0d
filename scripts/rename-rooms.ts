/**
 * Names that say the room (issue 48, item 4), as a script that can be run again: on this branch, and on a main that
 * has moved on (new files that import the old paths, other branches merged after this one).
 *
 *   npx tsx scripts/rename-rooms.ts            # moves, rewrites, prints what it did
 *   npx tsx scripts/rename-rooms.ts --dry-run  # prints what it would do, changes nothing
 *
 * What it does, in order (docs/architecture.md § Names says why each name):
 * 1. Resolves, in the tree as it is, every module reference of every text file the repository tracks: quoted
 *    relative (`./x`, `../x`) and alias (`@/x`, `~/x`) specifiers in code (imports, `vi.mock`, `new URL(…)`, comments
 *    that quote one), relative links in Markdown, and repository paths (`lib/x/y.ts`) in code, configs and docs.
 * 2. Moves each file or folder of MOVES with `git mv` (a file takes its tests along: `x.test.ts`, `x.*.test.ts`).
 * 3. Writes every reference that pointed at a moved module, or from a moved file, so it points where the module is
 *    now, in the form it had (relative or alias, with or without its extension). A reference that resolves to no
 *    file but would through MOVES (a branch merged after the moves) is mended the same way.
 * 4. Renames the identifiers of IDENTIFIERS, and the built names of BUILT_NAMES, as whole words in code and docs.
 * 5. Puts the new folders in their layer (`.dependency-cruiser.cjs`).
 *
 * Every step is idempotent: a second run finds nothing to move and every reference already resolving, and says so.
 *
 * On a main that has moved on (a branch written before the moves merged after them):
 *   git merge <branch>            # git follows most renames; in a conflict on an import line, keep the branch's line
 *   npx tsx scripts/rename-rooms.ts
 *   npm run typecheck && npm run lint
 * A line `BOTH a and b exist` means git did not see a rename: fold a's changes into b, `git rm a`, run again.
 * Or, instead of merging this branch: on the new main, check out this script alone and run it (that is how this
 * branch's own result was made: `git checkout house-names -- scripts/rename-rooms.ts`, run, then § Names of
 * docs/architecture.md by hand).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, posix } from 'node:path';
import { pathToFileURL } from 'node:url';

/** [old, new], repository paths. A file moves with its tests; a folder with everything under it. */
export const MOVES: [string, string][] = [
  // "bridge", meaning 1: the two scripts a frame gets on demand between the page's WebMCP and the extension
  // become the connector (frame connector in the isolated world, page connector in the page's).
  ['entrypoints/bridge.ts', 'entrypoints/frame-connector.ts'],
  ['entrypoints/page-bridge.ts', 'entrypoints/page-connector.ts'],
  ['lib/isolated-world/start-frame-bridge.ts', 'lib/isolated-world/start-frame-connector.ts'],
  ['lib/isolated-world/request-bridge.ts', 'lib/isolated-world/request-connector.ts'],
  ['lib/page-world/start-page-bridge.ts', 'lib/page-world/start-page-connector.ts'],
  ['lib/background/load-bridge.ts', 'lib/background/load-connector.ts'],
  ['lib/webmcp/bridge-keys.ts', 'lib/webmcp/connector-keys.ts'],
  ['bench/bridge.bench.ts', 'bench/connector.bench.ts'],
  ['tests/e2e/bridge-helpers.ts', 'tests/e2e/connector-helpers.ts'],
  ['tests/e2e/bridge-cursor.spec.ts', 'tests/e2e/connector-cursor.spec.ts'],
  ['tests/e2e/bridge-declarative.spec.ts', 'tests/e2e/connector-declarative.spec.ts'],
  ['tests/e2e/bridge-frames.spec.ts', 'tests/e2e/connector-frames.spec.ts'],
  ['tests/e2e/bridge-host.spec.ts', 'tests/e2e/connector-host.spec.ts'],
  ['tests/e2e/bridge-imperative.spec.ts', 'tests/e2e/connector-imperative.spec.ts'],
  ['tests/e2e/bridge-kept-window.spec.ts', 'tests/e2e/connector-kept-window.spec.ts'],
  ['tests/e2e/bridge-legacy.spec.ts', 'tests/e2e/connector-legacy.spec.ts'],
  ['tests/e2e/bridge-page-implementations.spec.ts', 'tests/e2e/connector-page-implementations.spec.ts'],
  ['tests/e2e/bridge-spa.spec.ts', 'tests/e2e/connector-spa.spec.ts'],
  ['tests/e2e/lazy-bridge.spec.ts', 'tests/e2e/lazy-connector.spec.ts'],
  // Meaning 2: the tool router as the agent host reaches it (directly on Firefox, by messages on Chrome).
  ['lib/messaging/tool-bridge.ts', 'lib/messaging/router-client.ts'],
  ['lib/host/create-tool-bridge-client.ts', 'lib/host/create-router-client.ts'],
  // Meaning 4: the messages of the whole chain, content script ⇄ router ⇄ agent host ("the tool bridge").
  ['lib/messaging/bridge-messages.ts', 'lib/messaging/router-messages.ts'],
  // Meaning 3, the desktop bridge (bridge/, lib/mcp-bridge/, mcp-bridge-messages.ts), keeps the word.
  // The on-device loop apart from the adapter contract: runLocalAgent and what only it (and the audit's preview of
  // it) uses, found with the import graph.
  ['lib/agent/run-local-agent.ts', 'lib/local-agent/run-local-agent.ts'],
  ['lib/agent/build-history.ts', 'lib/local-agent/build-history.ts'],
  ['lib/agent/build-local-system-prompt.ts', 'lib/local-agent/build-local-system-prompt.ts'],
  ['lib/agent/in-page-order.ts', 'lib/local-agent/in-page-order.ts'],
  ['lib/agent/detect-loop.ts', 'lib/local-agent/detect-loop.ts'],
  ['lib/agent/find-correction.ts', 'lib/local-agent/find-correction.ts'],
  ['lib/agent/parse-tool-calls.ts', 'lib/local-agent/parse-tool-calls.ts'],
  ['lib/agent/parse-python-calls.ts', 'lib/local-agent/parse-python-calls.ts'],
  ['lib/agent/read-react.ts', 'lib/local-agent/read-react.ts'],
  ['lib/agent/parsed-tool-call.ts', 'lib/local-agent/parsed-tool-call.ts'],
  ['lib/agent/parse-json.ts', 'lib/local-agent/parse-json.ts'],
  ['lib/agent/snippet.ts', 'lib/local-agent/snippet.ts'],
  // The host's call log.
  ['lib/inspector', 'lib/call-log'],
];

/** Exported identifiers named after the old rooms, renamed as whole words in code and docs. */
export const IDENTIFIERS: [string, string][] = [
  ['startFrameBridge', 'startFrameConnector'],
  ['FrameBridgeRuntime', 'FrameConnectorRuntime'],
  ['requestBridge', 'requestConnector'],
  ['startPageBridge', 'startPageConnector'],
  ['createBridgeLoader', 'createConnectorLoader'],
  ['BridgeLoaderPorts', 'ConnectorLoaderPorts'],
  ['BridgeInjection', 'ConnectorInjection'],
  ['loadBridge', 'loadConnector'],
  ['hasBridge', 'hasConnector'],
  ['PAGE_BRIDGE_NAME', 'PAGE_CONNECTOR_NAME'],
  ['BridgeChannel', 'ConnectorChannel'],
  ['BRIDGE_BENCH_NATIVE', 'CONNECTOR_BENCH_NATIVE'],
  ['BRIDGE_BENCH_BEFORE', 'CONNECTOR_BENCH_BEFORE'],
  ['BRIDGE_BENCH_LOADS', 'CONNECTOR_BENCH_LOADS'],
  ['BRIDGE_BENCH_CALLS', 'CONNECTOR_BENCH_CALLS'],
  ['ToolBridge', 'RouterClient'],
  ['HostToolBridge', 'HostRouterClient'],
  ['createToolBridgeClient', 'createRouterClient'],
  ['ToolBridgeClientPorts', 'RouterClientPorts'],
  // The background's test hook (the router itself), read by the E2E tests and benches. Not `toolRouter`: the release
  // check fails a store package that spells a hook's name, and the background's set-ups name their router so.
  ['toolBridge', 'testToolRouter'],
];

/** Built file names (what `scripting.executeScript` loads, and the tests and docs name), renamed where they stand alone. */
export const BUILT_NAMES: [RegExp, string][] = [
  [/(?<![\w.-])page-bridge\.js\b/g, 'page-connector.js'],
  [/(?<![\w.-])bridge\.js\b/g, 'frame-connector.js'],
  // The test selection's glob of the connector's specs (scripts/tests-for-changes.ts).
  [/(['"`])bridge-\*\1/g, '$1connector-*$1'],
  // The section of docs/architecture.md that code and docs cite by name.
  [/\b([Tt])he lazy bridge\b/g, '$1he lazy connector'],
  [/#the-lazy-bridge\b/g, '#the-lazy-connector'],
];

/** New folders and the layer line of `.dependency-cruiser.cjs` they join: [folder, the folder it follows there]. */
export const LAYER_JOINS: [string, string][] = [['lib/local-agent', 'lib/transcript']];

/** Where references are looked for: every tracked text file under these (and the root files), this script left out. */
const ROOTS = ['lib', 'components', 'entrypoints', 'tests', 'bench', 'scripts', 'bridge', 'docs', 'demo'];
const ROOT_FILES = /^[^/]+\.(ts|mts|cts|js|mjs|cjs|json|md)$|^\.dependency-cruiser\.cjs$/;
const TEXT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|json|md|html)$/;
/** This script and its test hold the old names on purpose. */
const SELF = ['scripts/rename-rooms.ts', 'scripts/rename-rooms.test.ts'];
const SKIP = /(^|\/)(node_modules|dist|\.output|\.wxt)\/|^package-lock\.json$|(^|\/)CHANGELOG\.md$/;
const CODE_EXTS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];

/** Where `p` (a repository path, file or folder, with or without its extension) is after MOVES; null when no move covers it. */
export function movedPath(p: string, moves: [string, string][] = MOVES): string | null {
  for (const [from, to] of moves) {
    if (p === from) return to;
    if (p.startsWith(`${from}/`)) return to + p.slice(from.length);
    const ext = extname(from);
    if (!ext) continue;
    const fromBase = from.slice(0, -ext.length);
    const toBase = to.slice(0, -extname(to).length);
    if (p === fromBase) return toBase;
    // A sibling that travels with the file: its tests (x.test.ts, x.search.test.ts).
    if (p.startsWith(`${fromBase}.`) && !p.slice(fromBase.length + 1).includes('/')) return toBase + p.slice(fromBase.length);
  }
  return null;
}

/** Where a file that now stands at `p` stood before MOVES; null when none put it there. */
function formerPath(p: string): string | null {
  return movedPath(
    p,
    MOVES.map(([a, b]) => [b, a]),
  );
}

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' });

function listFiles(): string[] {
  // Deduplicated: a file in a merge conflict is listed once per stage.
  return [...new Set(git('ls-files', '--cached', '--others', '--exclude-standard').split('\n'))]
    .filter((f) => f && existsSync(f) && !SKIP.test(f) && !SELF.includes(f))
    .filter((f) => (ROOTS.some((r) => f.startsWith(`${r}/`)) && TEXT.test(f)) || ROOT_FILES.test(f));
}

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/** The file a module path names, as a resolver would find it (extensionless, `.js` for `.ts`, a folder's index). */
function resolveFile(base: string, exists: (p: string) => boolean): string | null {
  const candidates = [base, ...CODE_EXTS.map((e) => base + e), ...['/index.ts', '/index.tsx', '/index.js'].map((i) => base + i)];
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  return candidates.find(exists) ?? null;
}

/** The reference `spec` wrote, as a repository path without resolution: null when it is no path of ours. */
function basePathOf(spec: string, fromFile: string): string | null {
  if (spec.startsWith('@/') || spec.startsWith('~/')) return posix.normalize(spec.slice(2));
  if (spec.startsWith('./') || spec.startsWith('../')) {
    const p = posix.normalize(posix.join(posix.dirname(fromFile), spec));
    return p.startsWith('..') ? null : p;
  }
  return null;
}

/** Writes a reference from `fromFile` to `target` in the form `spec` had: alias or relative; with its extension,
 * `.js` for `.ts`, a folder's index, or without. */
function specFor(spec: string, fromFile: string, target: string): string {
  const last = spec.slice(spec.lastIndexOf('/') + 1);
  const index = /\/index\.[a-z]+$/.exec(target);
  let path: string;
  if (index && !last.startsWith('index')) path = target.slice(0, -index[0].length);
  else if (extname(last) && extname(last) === extname(target)) path = target;
  else if (extname(last) === '.js' && /\.tsx?$/.test(target)) path = target.replace(/\.tsx?$/, '.js');
  else path = target.slice(0, target.length - extname(target).length);
  if (spec.startsWith('@/') || spec.startsWith('~/')) return spec.slice(0, 2) + path;
  const rel = posix.relative(posix.dirname(fromFile), path);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

interface Edit {
  file: string;
  what: string;
}

/** One file's references, resolved before the moves: each as [the reference, its replacement]. */
function planReferences(file: string, text: string, exists: (p: string) => boolean, willMove: (p: string) => string | null) {
  const replacements = new Map<string, string>();
  const fileAfter = willMove(file) ?? file;
  const consider = (spec: string) => {
    const base = basePathOf(spec, file);
    if (base === null) return;
    const resolved = resolveFile(base, exists);
    if (resolved) {
      const target = willMove(resolved) ?? resolved;
      if (target === resolved && fileAfter === file) return;
      const next = specFor(spec, fileAfter, target);
      if (next !== spec) replacements.set(spec, next);
      return;
    }
    // Not there: a reference written before the moves, in a file merged after them. Read it from where the file
    // stood (if MOVES put it here), then through MOVES.
    const former = formerPath(file);
    const bases = [...(former ? [basePathOf(spec, former)] : []), base].filter((b): b is string => b !== null);
    for (const b of bases) {
      const found = resolveFile(b, exists) ?? resolveFile(movedPath(b) ?? '\0', exists);
      if (!found) continue;
      const next = specFor(spec, fileAfter, willMove(found) ?? found);
      if (next !== spec) replacements.set(spec, next);
      return;
    }
  };
  for (const m of text.matchAll(/(['"`])((?:\.\.?|[@~])\/[^'"`\s$]*)\1/g)) consider(m[2]);
  if (file.endsWith('.md')) for (const m of text.matchAll(/\]\((\.\.?\/[^)\s#]+)/g)) consider(m[1]);
  return replacements;
}

/** Repository paths named in text (`lib/x/y.ts`, `lib/inspector`) that MOVES moved: [mention, where it is now]. */
function planMentions(text: string, willMovePath: (p: string) => string | null, exists: (p: string) => boolean) {
  const replacements = new Map<string, string>();
  const pattern = new RegExp(`(?<![\\w@/.~-])((?:${ROOTS.join('|')})/[\\w./-]*\\w)`, 'g');
  const there = (p: string) => existsSync(p) || resolveFile(p, exists) !== null;
  for (const m of text.matchAll(pattern)) {
    const mention = m[1];
    let to = willMovePath(mention);
    if (!to) {
      // A mention of the old place in a file merged after the moves.
      const moved = movedPath(mention);
      if (moved && !there(mention) && there(moved)) to = moved;
    }
    if (to && to !== mention) replacements.set(mention, to);
  }
  return replacements;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function applyReplacements(text: string, specs: Map<string, string>, mentions: Map<string, string>): string {
  let out = text;
  for (const [from, to] of specs) {
    out = out.replace(new RegExp(`(['"\`])${escapeRegExp(from)}\\1`, 'g'), (_, q) => `${q}${to}${q}`);
    out = out.replace(new RegExp(`\\]\\(${escapeRegExp(from)}(?=[)#])`, 'g'), `](${to}`);
  }
  // Longest first, so lib/inspector/x.ts is not read as lib/inspector + /x.ts.
  for (const [from, to] of [...mentions].sort((a, b) => b[0].length - a[0].length)) {
    out = out.replace(new RegExp(`(?<![\\w@/.~-])${escapeRegExp(from)}(?![\\w-]|\\.\\w)`, 'g'), to);
  }
  return out;
}

/**
 * A moved file's name standing alone (`load-bridge.ts`, `load-bridge.test.ts` in prose and comments): its new name.
 * Only file entries whose name changed; `bridge.ts` only as itself (bridge/src has a `bridge.test.ts` of its own).
 */
export function bareNames(): [RegExp, string][] {
  const names: [RegExp, string][] = [];
  for (const [from, to] of MOVES) {
    const ext = extname(from);
    if (!ext) continue;
    const oldBase = posix.basename(from, ext);
    const newBase = posix.basename(to, extname(to));
    if (oldBase === newBase) continue;
    const tail = oldBase === 'bridge' ? `\\${ext}` : `(\\.[a-z]+)*\\${ext}`;
    names.push([new RegExp(`(?<![\\w/.-])${escapeRegExp(oldBase)}(?=${tail}\\b)`, 'g'), newBase]);
    // A spec or module named by its stem in quotes ('lazy-bridge', './bridge-helpers'), as the test selection does;
    // not 'bridge', which is also the desktop package's name.
    const oldStem = oldBase.replace(/\.spec$/, '');
    const newStem = newBase.replace(/\.spec$/, '');
    if (oldStem !== 'bridge') names.push([new RegExp(`(?<=(['"\`])(\\./)?)${escapeRegExp(oldStem)}(?=\\1)`, 'g'), newStem]);
  }
  return names;
}

/** The identifier, built-name and bare-name renames of one text. */
export function renameWords(text: string): string {
  let out = text;
  for (const [pattern, to] of bareNames()) out = out.replace(pattern, to);
  for (const [from, to] of IDENTIFIERS) out = out.replace(new RegExp(`\\b${from}\\b`, 'g'), to);
  for (const [pattern, to] of BUILT_NAMES) out = out.replace(pattern, to);
  return out;
}

function joinLayers(text: string): string {
  let out = text;
  for (const [folder, after] of LAYER_JOINS) {
    if (out.includes(`'${folder}'`)) continue;
    out = out.replace(`'${after}',`, `'${after}', '${folder}',`);
  }
  return out;
}

export function main(argv = process.argv.slice(2)) {
  const dryRun = argv.includes('--dry-run');
  const root = git('rev-parse', '--show-toplevel').trim();
  process.chdir(root);
  const files = listFiles();
  const before = new Set(git('ls-files', '--cached', '--others', '--exclude-standard').split('\n').filter(Boolean));
  const exists = (p: string) => before.has(p) && isFile(p);

  // The moves this run makes: every tracked file a MOVES entry covers whose new place is free.
  const moves = new Map<string, string>();
  for (const f of before) {
    const to = movedPath(f);
    if (to && isFile(f) && !existsSync(to)) moves.set(f, to);
  }
  // A file at both places: a branch merged after the moves changed the old one where git did not see the rename.
  // Left for a person: fold the old file's changes into the new one, then `git rm` the old one and run again.
  const both = [...before].filter((f) => {
    const to = movedPath(f);
    return to !== null && isFile(f) && existsSync(to);
  });
  for (const f of both) console.log(`BOTH   ${f} and ${movedPath(f)} exist: fold the first into the second, git rm it, run again`);
  const willMove = (p: string) => moves.get(p) ?? null;
  // A path a text names (a file, its extensionless name, a folder) that this run moves.
  const willMovePath = (p: string) => {
    const to = movedPath(p);
    if (!to) return null;
    return [...moves.keys()].some((f) => f === p || f.startsWith(`${p}/`) || f.startsWith(`${p}.`)) ? to : null;
  };

  // 1. Plan every file's edits in the tree as it is.
  const plans = new Map<string, string>();
  const edits: Edit[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const specs = [...CODE_EXTS, '.md', '.html'].includes(extname(file)) ? planReferences(file, text, exists, willMove) : new Map();
    const mentions = planMentions(text, willMovePath, exists);
    let next = applyReplacements(text, specs, mentions);
    next = renameWords(next);
    if (file === '.dependency-cruiser.cjs') next = joinLayers(next);
    if (next !== text) {
      plans.set(file, next);
      const parts = [...specs].map(([a, b]) => `${a} → ${b}`).concat([...mentions].map(([a, b]) => `${a} → ${b}`));
      edits.push({ file, what: parts.length > 0 ? parts.join(', ') : 'identifiers or built names' });
    }
  }

  // 2. Move.
  for (const [from, to] of [...moves].sort()) {
    console.log(`move   ${from} → ${to}`);
    if (dryRun) continue;
    mkdirSync(dirname(to), { recursive: true });
    const tracked = git('ls-files', '--', from).trim() !== '';
    if (tracked) git('mv', from, to);
    else execFileSync('mv', [from, to]);
  }

  // 3. Write, each file at its new place.
  for (const edit of edits) {
    const at = moves.get(edit.file) ?? edit.file;
    console.log(`edit   ${at}: ${edit.what}`);
    if (!dryRun) writeFileSync(at, plans.get(edit.file)!);
  }
  // Imports renamed sort elsewhere and lines grow: the project's formatter puts them right (safe fixes only).
  const written = edits.map((e) => moves.get(e.file) ?? e.file).filter((f) => /\.(ts|tsx|js|mjs|cjs|json)$/.test(f));
  if (!dryRun && written.length > 0) {
    try {
      execFileSync('npx', ['biome', 'check', '--write', '--no-errors-on-unmatched', ...written], { stdio: 'ignore' });
    } catch {
      console.log('biome check --write reported what it could not fix: run `npm run lint`.');
    }
  }
  console.log(
    moves.size === 0 && edits.length === 0
      ? `Nothing to do: every move is made and every reference resolves${both.length > 0 ? ` (but ${both.length} files at both places, above)` : ''}.`
      : `${moves.size} files moved, ${edits.length} files edited${dryRun ? ' (dry run: nothing written)' : ''}.`,
  );
  return { moved: moves.size, edited: edits.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
