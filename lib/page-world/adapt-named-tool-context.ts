/**
 * Pages built on @mcp-b/global 1.x put their own `navigator.modelContext` in the page (an MCP server object) and
 * register their tools there, not on `document.modelContext`. Its tools are listed with `listTools()` and run by
 * name: `executeTool(name, args)` or `callTool({name, arguments})`. It dispatches no events, so a change is heard
 * by wrapping its own mutators on the instance (issue 23, item 10; docs/webmcp-conformance.md).
 *
 * Everything read from it is the page's: hostile, and read the way serve-page-tools reads any implementation.
 */

import { readPageField } from '../webmcp/read-page-field';

/** The surface serve-page-tools reads an implementation through. */
interface ToolContextReader {
  getTools: () => Promise<unknown[]>;
  executeTool: (tool: unknown, input: unknown, options?: { signal?: AbortSignal }) => Promise<unknown>;
}

type NamedToolContext = Record<string, unknown>;

const MUTATORS = ['registerTool', 'unregisterTool', 'provideContext', 'clearContext'] as const;
const HEARD = Symbol.for('webmcp-agent.named-tools-heard');

/**
 * Reads an implementation that lists with `listTools()` and runs by name, or returns undefined when `candidate` is
 * not one (today's `getTools()` implementations are read as they are). `changed` is called after each of its
 * mutators returns.
 */
export function adaptNamedToolContext(candidate: unknown, changed: () => void): ToolContextReader | undefined {
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const target = candidate as NamedToolContext;
  if (typeof readPageField(target, 'getTools') === 'function' || typeof readPageField(target, 'listTools') !== 'function') return undefined;
  hearChanges(target, changed);
  return {
    getTools: async () => {
      const listed = await Reflect.apply(readPageField(target, 'listTools') as () => unknown, target, []);
      return Array.isArray(listed) ? listed : [];
    },
    executeTool: async (tool, input) => {
      const name = readPageField(tool as NamedToolContext, 'name');
      const execute = readPageField(target, 'executeTool');
      if (typeof execute === 'function') return Reflect.apply(execute, target, [name, input]);
      const call = readPageField(target, 'callTool');
      if (typeof call === 'function') return Reflect.apply(call, target, [{ name, arguments: input }]);
      throw new DOMException(`Tool not found: ${String(name)}`, 'NotFoundError');
    },
  };
}

/** Wraps the instance's mutators once, so that the bridge hears a tool registered after load. */
function hearChanges(target: NamedToolContext, changed: () => void): void {
  if (Object.hasOwn(target, HEARD)) return;
  try {
    Object.defineProperty(target, HEARD, { value: true });
  } catch {
    return; // A frozen object: it is still read on every request and at load.
  }
  for (const key of MUTATORS) {
    const original = readPageField(target, key);
    if (typeof original !== 'function') continue;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      try {
        return Reflect.apply(original, this, args);
      } finally {
        queueMicrotask(changed);
      }
    };
    try {
      Object.defineProperty(target, key, { value: wrapped, configurable: true, writable: true, enumerable: false });
    } catch {
      // A property the page made read-only stays the page's; changes are read on the next request.
    }
  }
}
