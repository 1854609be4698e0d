import { describe, expect, it } from 'vitest';
import { movedPath, renameWords } from './rename-rooms';

describe('movedPath', () => {
  it('moves a file with its tests, and a folder with everything under it', () => {
    expect(movedPath('lib/agent/run-local-agent.ts')).toBe('lib/local-agent/run-local-agent.ts');
    expect(movedPath('lib/agent/run-local-agent.search.test.ts')).toBe('lib/local-agent/run-local-agent.search.test.ts');
    expect(movedPath('lib/agent/run-local-agent')).toBe('lib/local-agent/run-local-agent');
    expect(movedPath('lib/inspector/call-timeline.ts')).toBe('lib/call-log/call-timeline.ts');
    expect(movedPath('lib/inspector')).toBe('lib/call-log');
  });

  it('leaves alone what no move names, and names that only begin alike', () => {
    expect(movedPath('lib/agent/types.ts')).toBeNull();
    expect(movedPath('lib/agent/snippets.ts')).toBeNull();
    expect(movedPath('lib/inspector-x/a.ts')).toBeNull();
    expect(movedPath('lib/mcp-bridge/to-bridge-tool.ts')).toBeNull();
    expect(movedPath('lib/messaging/mcp-bridge-messages.ts')).toBeNull();
  });

  it('is its own undoing when the table is read backwards', () => {
    const back = (p: string) => movedPath(p, [['lib/local-agent/snippet.ts', 'lib/agent/snippet.ts']]);
    expect(back(movedPath('lib/agent/snippet.test.ts')!)).toBe('lib/agent/snippet.test.ts');
  });
});

describe('renameWords', () => {
  it('renames the identifiers, built names and bare file names of the page side and the router client', () => {
    expect(renameWords("files: ['/bridge.js'], world: 'MAIN', files: ['/page-bridge.js']")).toBe(
      "files: ['/frame-connector.js'], world: 'MAIN', files: ['/page-connector.js']",
    );
    expect(renameWords('createToolBridgeClient(ports) as ToolBridge; HostToolBridge')).toBe(
      'createRouterClient(ports) as RouterClient; HostRouterClient',
    );
    expect(renameWords('see load-bridge.test.ts and `lazy-bridge.spec.ts`')).toBe(
      'see load-connector.test.ts and `lazy-connector.spec.ts`',
    );
    expect(renameWords("specs: ['bridge-*', 'lazy-bridge'], './bridge-helpers'")).toBe(
      "specs: ['connector-*', 'lazy-connector'], './connector-helpers'",
    );
    expect(renameWords('(globalThis as any).toolBridge.getTools(t)')).toBe('(globalThis as any).testToolRouter.getTools(t)');
  });

  it('leaves the desktop bridge its word', () => {
    const desktop =
      "bridge/src/bridge.test.ts, bridge.test.ts, mcp-bridge-messages.ts, createMcpBridge, dev.webmcp_agent.bridge.json, workspace 'bridge', BridgeBrowser";
    expect(renameWords(desktop)).toBe(desktop);
  });
});
