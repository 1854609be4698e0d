/**
 * The folder-level picture of the imports, from dependency-cruiser: how many arrows between folders, which folders
 * import each other in a circle, and what each folder imports. `npm run lint` checks the rules
 * (`.dependency-cruiser.cjs`); this prints the numbers docs/architecture.md § Layers quotes.
 *
 *   npm run layers:report   # shipped files (the config leaves tests out), as Markdown
 */
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** The folders the report and the check look at. */
export const SOURCE_DIRS = ['lib', 'components', 'entrypoints', 'bridge/src'];

/** The folder a source file counts in: `lib/<x>`, `components/<x>`, `entrypoints`, `bridge`; else null (not ours). */
export function folderOf(path: string): string | null {
  const parts = path.split('/');
  if (parts[0] === 'lib' || parts[0] === 'components') return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
  if (parts[0] === 'entrypoints') return 'entrypoints';
  if (parts[0] === 'bridge') return 'bridge';
  return null;
}

/** Folder → the folders it imports (itself left out). */
export type FolderGraph = Map<string, Set<string>>;

/** Builds the folder graph from dependency-cruiser's modules. */
export function folderGraph(modules: { source: string; dependencies: { resolved: string }[] }[]): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const module of modules) {
    const from = folderOf(module.source);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (to && to !== from) graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** The graph's strongly connected components of more than one folder: each is a circle between folders. */
export function folderCircles(graph: FolderGraph): string[][] {
  // Tarjan's algorithm; the graph has a few dozen nodes.
  let index = 0;
  const indices = new Map<string, number>();
  const lowlink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    lowlink.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlink.set(node, Math.min(lowlink.get(node)!, lowlink.get(next)!));
      } else if (onStack.has(next)) {
        lowlink.set(node, Math.min(lowlink.get(node)!, indices.get(next)!));
      }
    }
    if (lowlink.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node);
  return circles;
}

/** Pairs of folders that import each other directly. */
export function mutualPairs(graph: FolderGraph): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [from, tos] of graph) for (const to of tos) if (from < to && graph.get(to)?.has(from)) pairs.push([from, to]);
  return pairs.sort();
}

/** The report as Markdown. */
export function formatReport(graph: FolderGraph): string {
  const arrows = [...graph.values()].reduce((sum, tos) => sum + tos.size, 0);
  const circles = folderCircles(graph);
  const lines = [
    `Folders: ${graph.size}. Import arrows between folders: ${arrows}. Folders in circles: ${circles.reduce((n, c) => n + c.length, 0)} (${circles.length} circle${circles.length === 1 ? '' : 's'}); pairs importing each other: ${mutualPairs(graph).length}.`,
    '',
    ...circles.map((circle) => `- circle: ${circle.join(', ')}`),
    ...mutualPairs(graph).map(([a, b]) => `- pair: ${a} ⇄ ${b}`),
    '',
    '| Folder | Imports |',
    '| --- | --- |',
    ...[...graph.keys()].sort().map((from) => `| ${from} | ${[...graph.get(from)!].sort().join(', ') || '—'} |`),
  ];
  return lines.join('\n');
}

function main() {
  const json = execFileSync(
    process.execPath,
    [
      '--import',
      './scripts/layers/swc-tsx-hooks.mjs',
      'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
      ...SOURCE_DIRS,
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'json',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const { modules } = JSON.parse(json);
  console.log(formatReport(folderGraph(modules)));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) main();
