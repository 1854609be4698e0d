import { describe, expect, it, vi } from 'vitest';
import { adaptNamedToolContext } from './adapt-named-tool-context';

/** A page implementation shaped like @mcp-b/global 1.x's navigator.modelContext: listTools() and calls by name. */
function namedContext() {
  const tools = new Map<string, (args: unknown) => unknown>();
  const context = {
    registerTool: (tool: { name: string; execute: (args: unknown) => unknown }) => {
      tools.set(tool.name, tool.execute);
    },
    unregisterTool: (name: string) => {
      tools.delete(name);
    },
    listTools: () => [...tools.keys()].map((name) => ({ name, description: `${name} tool` })),
    executeTool: async (name: string, args: unknown) => tools.get(name)?.(args),
  };
  return context;
}

describe('adaptNamedToolContext', () => {
  it('reads an implementation that lists with listTools() and runs its tools by name', async () => {
    const page = namedContext();
    page.registerTool({ name: 'add', execute: (args) => (args as { a: number }).a + 1 });
    const reader = adaptNamedToolContext(page, () => {});
    expect(await reader?.getTools()).toEqual([{ name: 'add', description: 'add tool' }]);
    expect(await reader?.executeTool({ name: 'add' }, { a: 2 })).toBe(3);
  });

  it('runs through callTool({name, arguments}) when there is no executeTool', async () => {
    const callTool = vi.fn(async (request: unknown) => request);
    const reader = adaptNamedToolContext({ listTools: () => [], callTool }, () => {});
    expect(await reader?.executeTool({ name: 'x' }, { y: 1 })).toEqual({ name: 'x', arguments: { y: 1 } });
  });

  it('hears each mutator once wrapped, however often it is adapted, and the page still gets what its method returns', async () => {
    const page = namedContext();
    const changed = vi.fn();
    adaptNamedToolContext(page, changed);
    adaptNamedToolContext(page, changed);
    page.registerTool({ name: 'later', execute: () => 'x' });
    page.unregisterTool('nothing');
    await Promise.resolve();
    expect(changed).toHaveBeenCalledTimes(2);
    expect(page.listTools().map((t) => t.name)).toEqual(['later']);
  });

  it("leaves today's getTools() implementations, and what is no implementation, to be read as they are", () => {
    expect(adaptNamedToolContext({ getTools: () => [], listTools: () => [] }, () => {})).toBeUndefined();
    expect(adaptNamedToolContext({ registerTool: () => {} }, () => {})).toBeUndefined();
    expect(adaptNamedToolContext(null, () => {})).toBeUndefined();
    expect(adaptNamedToolContext('modelContext', () => {})).toBeUndefined();
  });

  it('reads a hostile object whose getters throw as nothing, without throwing', async () => {
    const hostile = new Proxy(
      {},
      {
        get(_, key) {
          if (key === 'listTools') return () => 'not a list';
          throw new Error('trap');
        },
      },
    );
    const reader = adaptNamedToolContext(hostile, () => {});
    expect(await reader?.getTools()).toEqual([]);
    await expect(reader?.executeTool({ name: 'x' }, {})).rejects.toThrow(/Tool not found/);
  });
});
