import { describe, expect, it } from 'vitest';
import { checkModelContextTool, type ReadTool, readModelContextTool } from './read-model-context-tool';

const execute = () => 'ok';

const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
  return 'accepted';
};

describe('readModelContextTool', () => {
  it('reads every member once, in code-point order', () => {
    const reads: string[] = [];
    const tool = new Proxy(
      { name: 'search', description: 'Searches', execute },
      {
        get(target, key) {
          reads.push(String(key));
          return Reflect.get(target, key);
        },
      },
    );
    const read = readModelContextTool(tool);
    expect(reads).toEqual(['annotations', 'description', 'execute', 'inputSchema', 'name', 'outputSchema', 'title']);
    expect(read).toMatchObject({ name: 'search', title: '', description: 'Searches', annotations: undefined });
  });

  it('runs the page function with no `this`, with the input and client', () => {
    let seen: unknown[] = [];
    const read = readModelContextTool({
      name: 'n',
      description: 'd',
      execute(this: unknown, ...args: unknown[]) {
        seen = [this, ...args];
        return 1;
      },
    });
    const client = { signal: new AbortController().signal, invocation: {} as never };
    expect(read.execute({ q: 1 }, client)).toBe(1);
    expect(seen).toEqual([undefined, { q: 1 }, client]);
  });

  it("throws native's TypeError for what is no ModelContextTool", () => {
    expect(thrown(() => readModelContextTool(null))).toBe(
      "TypeError: Failed to execute 'registerTool' on 'ModelContext': The provided value is not of type 'ModelContextTool'.",
    );
    expect(thrown(() => readModelContextTool({ name: 'n', execute }))).toContain(
      "Failed to read the 'description' property from 'ModelContextTool': Required member is undefined.",
    );
    expect(thrown(() => readModelContextTool({ name: 'n', description: 'd', execute: 'no' }))).toContain(
      "Failed to read the 'execute' property from 'ModelContextTool': The provided value is not a function.",
    );
  });
});

describe('checkModelContextTool', () => {
  const read = (more: Partial<ReadTool> = {}): ReadTool => ({
    name: 'search',
    title: '',
    description: 'Searches',
    inputSchema: undefined,
    outputSchema: undefined,
    execute,
    ...more,
  });

  it('keeps the schemas as JSON text, taken now', () => {
    const checked = checkModelContextTool(read({ inputSchema: { type: 'object' }, outputSchema: { type: 'string' } }), new Map());
    expect(checked).toMatchObject({ schemaJson: '{"type":"object"}', outputSchemaJson: '{"type":"string"}' });
    expect('outputSchemaJson' in checkModelContextTool(read(), new Map())).toBe(false);
  });

  it('refuses, in native order, a bad name, an empty description, a taken name, then a schema that is no JSON', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const taken = new Map([['search', {}]]);
    expect(thrown(() => checkModelContextTool(read({ name: 'a b', description: '' }), taken))).toBe('InvalidStateError: Invalid tool name');
    expect(thrown(() => checkModelContextTool(read({ description: '' }), taken))).toBe('InvalidStateError: Description is required');
    expect(thrown(() => checkModelContextTool(read({ inputSchema: cyclic }), taken))).toBe('InvalidStateError: Duplicate tool name');
    expect(thrown(() => checkModelContextTool(read({ inputSchema: cyclic }), new Map()))).toMatch(
      /^TypeError: Failed to execute 'registerTool'/,
    );
    expect(thrown(() => checkModelContextTool(read({ outputSchema: { toJSON: () => undefined } }), new Map()))).toContain(
      'invalid output schema: toJSON() returns undefined',
    );
  });
});
