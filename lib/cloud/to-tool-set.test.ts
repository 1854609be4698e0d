import { describe, expect, it } from 'vitest';
import { asPageData } from '../../tests/fixtures/page-data';
import type { ToolCall, ToolDescriptor, ToolOutput } from '../agent/types';
import { cleanDescription, cleanSchema } from '../schema/clean-schema';
import { PageToolError, toToolSet } from './to-tool-set';

type Executable = {
  description?: string;
  inputSchema: { jsonSchema: unknown };
  execute?: (input: unknown, options: { toolCallId: string; messages: []; context: undefined }) => Promise<unknown>;
  toModelOutput?: (options: { toolCallId: string; input: unknown; output: unknown }) => unknown;
};

const tool = (set: ReturnType<typeof toToolSet>, name: string) => set.tools[name] as unknown as Executable;
const run = (t: Executable, input: unknown, toolCallId = 'c1') => t.execute!(input, { toolCallId, messages: [], context: undefined });

const tools: ToolDescriptor[] = [
  {
    name: 'search.products',
    description: 'Search\u0000 the \u202Ecatalogue\u200B.\nReturns names.',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'https://shop.test/search',
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 }, $id: { type: 'string', $id: 'inner' } },
      required: ['query'],
    },
  },
  { name: 'search.products', description: 'A duplicate the page registered twice', inputSchema: { type: 'object' } },
  { name: 'get_cart', description: 'Read the cart', inputSchema: {} },
];

describe('toToolSet', () => {
  it('describes the tools with provider-safe names, clean descriptions and clean schemas', () => {
    const set = toToolSet(tools);
    expect(Object.keys(set.tools)).toEqual(['search_products', 'get_cart']);
    const search = tool(set, 'search_products');
    expect(search.description).toBe('Search the catalogue.\nReturns names.');
    expect(search.inputSchema.jsonSchema).toEqual({
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 }, $id: { type: 'string' } },
      required: ['query'],
    });
    expect(tool(set, 'get_cart').inputSchema.jsonSchema).toEqual({ type: 'object', properties: {} });
    expect(search.execute).toBeUndefined();
  });

  it("tells the model the shape of a tool's result after its description, when the page declared one", () => {
    const set = toToolSet([{ name: 'get_cart', description: 'Read the cart', inputSchema: {}, returns: '{total: number}' }]);
    expect(tool(set, 'get_cart').description).toBe('Read the cart. Returns: {total: number}');
  });

  it('maps names both ways', () => {
    const set = toToolSet(tools);
    expect(set.toPageName('search_products')).toBe('search.products');
    expect(set.toPageName('get_cart')).toBe('get_cart');
    expect(set.toPageName('unknown')).toBeUndefined();
    expect(set.toProviderName('search.products')).toBe('search_products');
    expect(set.toProviderName('gone.tool')).toBe('gone_tool');
  });

  it('runs a valid call through callTool with the page’s name and the call id', async () => {
    const calls: ToolCall[] = [];
    const output: ToolOutput = { content: [{ type: 'text', text: 'Blue mug' }] };
    const set = toToolSet(tools, {
      callTool: async (call) => {
        calls.push(call);
        return output;
      },
    });
    expect(await run(tool(set, 'search_products'), { query: 'mug' }, 'call-9')).toBe(output);
    expect(calls).toEqual([{ id: 'call-9', name: 'search.products', input: { query: 'mug' } }]);
    expect(tool(set, 'search_products').toModelOutput!({ toolCallId: 'call-9', input: {}, output })).toEqual({
      type: 'text',
      value: asPageData('search_products', 'Blue mug'),
    });
  });

  it('refuses arguments that do not fit the schema without calling the page', async () => {
    const calls: ToolCall[] = [];
    const set = toToolSet(tools, {
      callTool: async (call) => {
        calls.push(call);
        return { content: [] };
      },
    });
    const error = (await run(tool(set, 'search_products'), { query: '' }).catch((e) => e)) as Error;
    expect(error).toBeInstanceOf(PageToolError);
    expect(error.message).toBe('Error [invalid_input]: query: must not be empty. Fix the arguments and call search_products again.');
    expect(calls).toEqual([]);
  });

  it('turns an isError result into a PageToolError with the page’s text', async () => {
    const set = toToolSet(tools, {
      callTool: async () => ({ content: [{ type: 'text', text: 'Error [timeout]: the page did not answer' }], isError: true }),
    });
    await expect(run(tool(set, 'get_cart'), {})).rejects.toThrow('Error [timeout]: the page did not answer');
  });

  it('runs calls one at a time even when asked for several at once', async () => {
    const events: string[] = [];
    const set = toToolSet(tools, {
      callTool: async (call) => {
        events.push(`start ${call.id}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        events.push(`end ${call.id}`);
        return { content: [] };
      },
    });
    await Promise.all([run(tool(set, 'get_cart'), {}, 'a'), run(tool(set, 'get_cart'), {}, 'b'), run(tool(set, 'get_cart'), {}, 'c')]);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});

describe('cleanSchema', () => {
  it('makes every root an object schema', () => {
    expect(cleanSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(cleanSchema({ properties: { a: { type: 'string' } } })).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(cleanSchema({ type: 'string' })).toEqual({ type: 'object', properties: {} });
  });

  it('survives cycles and depth', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(cleanSchema(cyclic)).toEqual({ type: 'object', properties: { self: {} } });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { type: 'object', properties: { d: deep } };
    expect(() => JSON.stringify(cleanSchema(deep))).not.toThrow();
  });
});

describe('cleanDescription', () => {
  it('keeps visible text, tabs and newlines', () => {
    expect(cleanDescription(' a\tb\nc\u0007\u2066d\uFEFF ')).toBe('a\tb\ncd');
  });
});
