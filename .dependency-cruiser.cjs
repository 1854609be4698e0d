/**
 * The layers of docs/architecture.md § Layers, checked by `npm run lint` (dependency-cruiser). Shipped code only:
 * tests beside their modules may assemble parts across layers to test them together, and lib/testing is for them.
 *
 * To add a folder, put it in a layer below (a composition root goes in 'wiring'; a new context in 'contexts'; a
 * folder under components/ is already part of the UI context). A file may import its own folder, and any folder of a
 * lower layer; within 'logic' folders may import each other; a context imports no other context. No folders may
 * import each other in a circle. Imports that other work is removing are listed in
 * .dependency-cruiser-known-violations.json (`npm run layers:baseline` writes it anew: run it only to shrink it) and,
 * for folder circles, in CIRCLES_IN_FLIGHT below.
 */

/** From the bottom up: each layer may import the layers before it. */
const LAYERS = [
  // Pure helpers: no browser, no context, nothing of ours above them.
  { name: 'base', folders: ['lib/shared', 'lib/page-data', 'lib/schema', 'lib/platform.ts'] },
  // The contracts: the adapter contract, and every shape that crosses a context boundary.
  { name: 'contracts', folders: ['lib/agent', 'lib/messaging'] },
  // Logic the contexts run, pure TypeScript with browser APIs passed in; what both page worlds share.
  {
    name: 'logic',
    folders: [
      'lib/transcript',
      'lib/local-agent',
      'lib/call-log',
      'lib/evals',
      'lib/cloud',
      'lib/local',
      'lib/storage',
      'lib/audit',
      'lib/webmcp',
    ],
  },
  // One folder per context; none imports another.
  {
    name: 'contexts',
    folders: ['lib/background', 'lib/host', 'lib/mcp-bridge', 'lib/page-world', 'lib/isolated-world', 'components'],
  },
  // What puts the contexts together: the entry points, and the agent host's composition root (which both Chrome's
  // offscreen document and Firefox's background page run).
  { name: 'wiring', folders: ['entrypoints', 'lib/agent-host-root'] },
];

/** A path regex for a list of folders (or single files). */
const pathOf = (folders) => `^(${folders.map((f) => f.replace(/[.]/g, '\\.')).join('|')})(/|$)`;
const TEST = '\\.test\\.tsx?$';
/** Test stand-ins (lib/testing) and the Node package (bridge/) follow rules of their own below. */
const OWN_RULES = ['lib/testing', 'bridge'];

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer.name}`,
  comment: `The ${layer.name} layer imports only itself and the layers below it (docs/architecture.md § Layers).`,
  severity: 'error',
  from: { path: pathOf(layer.folders), pathNot: TEST },
  to: { path: pathOf(LAYERS.slice(i + 1).flatMap((l) => l.folders)) },
}));

const contexts = LAYERS.find((layer) => layer.name === 'contexts').folders;

/**
 * Folder circles tolerated while work removing them is in flight, left out of no-folder-circles until it lands (the
 * known-violations file holds only module-level ones). Empty: no folders import each other in a circle. A folder
 * listed here is skipped as the start of a circle; one through any other folder is still found.
 */
const CIRCLES_IN_FLIGHT = [];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'contexts-apart',
      comment:
        'A context talks to another through lib/messaging, never by importing it: the shapes they share live there (docs/architecture.md § Layers).',
      severity: 'error',
      from: { path: `^(${contexts.join('|')})/`, pathNot: TEST },
      to: { path: `^(${contexts.join('|')})/`, pathNot: '^$1/' },
    },
    {
      name: 'no-folder-circles',
      comment: 'No folders import each other in a circle: a folder is a unit a reader can hold, above or below another.',
      severity: 'error',
      scope: 'folder',
      from: CIRCLES_IN_FLIGHT.length > 0 ? { path: `^(?!(${CIRCLES_IN_FLIGHT.join('|')})$)` } : {},
      to: { circular: true },
    },
    {
      name: 'no-module-circles',
      comment:
        'No modules of lib/ import each other in a circle, types included: a type both need lives in a file of its own (lib/local-agent/parsed-tool-call.ts).',
      severity: 'error',
      // lib/ only for now: components/chat/message-view.tsx and tool-call-card.tsx still import each other.
      from: { path: '^lib/' },
      to: { circular: true },
    },
    {
      name: 'every-folder-in-a-layer',
      comment: 'A folder that imports anything belongs to a layer: add it to LAYERS in .dependency-cruiser.cjs.',
      severity: 'error',
      from: { pathNot: [pathOf([...LAYERS.flatMap((l) => l.folders), ...OWN_RULES]), TEST] },
      to: {},
    },
    {
      name: 'testing-only-in-tests',
      comment: 'lib/testing holds test stand-ins: no shipped file imports it.',
      severity: 'error',
      from: { pathNot: [pathOf(['lib/testing']), TEST] },
      to: { path: pathOf(['lib/testing']) },
    },
    {
      name: 'bridge-package-alone',
      comment: 'bridge/ is a Node package that builds on its own: it imports nothing of the extension.',
      severity: 'error',
      from: { path: '^bridge/' },
      to: { pathNot: ['^bridge/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'bridge-contract-through-messaging',
      comment:
        'The extension reads the bridge package only through lib/messaging, and only its contract: what it says on native messaging (protocol.ts), who it answers (extension-ids.ts) and the request line both ends ask over (create-request-line.ts).',
      severity: 'error',
      from: { pathNot: ['^bridge/', '^lib/messaging/', TEST] },
      to: { path: '^bridge/' },
    },
    {
      name: 'bridge-contract-only',
      comment: 'lib/messaging re-exports the bridge package’s contract, nothing else of it.',
      severity: 'error',
      from: { path: '^lib/messaging/' },
      to: { path: '^bridge/', pathNot: '^bridge/src/(protocol|extension-ids|create-request-line)\\.ts$' },
    },
  ],
  options: {
    // TypeScript 7 has no JS API for dependency-cruiser's own TypeScript reader: it parses with swc
    // (scripts/layers/swc-tsx.mjs, loaded by `npm run lint:layers`).
    parser: 'swc',
    // WXT's @/ and ~/ aliases.
    webpackConfig: { fileName: 'scripts/layers/resolve.cjs' },
    doNotFollow: { path: 'node_modules' },
    // Tests beside their modules are left out (see above); so are builds and generated files.
    exclude: { path: ['(^|/)(node_modules|\\.output|\\.wxt)/', TEST] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
