import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse-tool-calls';
import type { ToolDescriptor } from '../agent/types';

// The ReAct reader runs inside parseToolCalls, which decides when a reply is ReAct; it is tested through it.
const tools: ToolDescriptor[] = [
  {
    name: 'search_products',
    description: 'Search the catalog.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
  { name: 'get_cart', description: 'Read the cart.', inputSchema: { type: 'object', properties: {} } },
];

function calls(text: string) {
  return parseToolCalls(text, tools).calls.map(({ name, input }) => ({ name, input }));
}

describe('parseToolCalls: text ReAct (Thought / Action / Action Input)', () => {
  it('reads Action and Action Input, keeping the Thought as reasoning', () => {
    const reply = 'Thought: I need to search first.\nAction: search_products\nAction Input: {"query": "green tea"}';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed.reasoning).toBe('I need to search first.');
    expect(parsed.text).toBe('');
    expect(parsed.calls).toMatchObject([{ name: 'search_products', input: { query: 'green tea' }, format: 'react' }]);
  });

  it('reads bold labels in any case', () => {
    const reply = '**Thought:** look it up\n**ACTION:** search_products\n**action input**: {"query": "tea"}';
    expect(calls(reply)).toEqual([{ name: 'search_products', input: { query: 'tea' } }]);
  });

  it('reads Action: f(value) with a bare value for a one-parameter tool', () => {
    expect(calls('Thought: search.\nAction: search_products(green tea)')).toEqual([
      { name: 'search_products', input: { query: 'green tea' } },
    ]);
    expect(calls('Action: search_products(query="tea")')).toEqual([{ name: 'search_products', input: { query: 'tea' } }]);
    expect(calls('Action: search_products\nAction Input: tea')).toEqual([{ name: 'search_products', input: { query: 'tea' } }]);
  });

  it('ignores an invented Observation and everything after it', () => {
    const reply =
      'Thought: search\nAction: search_products\nAction Input: {"query": "tea"}\nObservation: Found 3 teas.\nThought: done\nFinal Answer: I found 3 teas.';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed.finalAnswer).toBeUndefined();
    expect(parsed.calls).toHaveLength(1);
    expect(parsed.text).toBe('');
  });

  it('lets Final Answer win over Action', () => {
    const reply = 'Thought: I know this.\nFinal Answer: Your cart is empty.\nAction: get_cart';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed).toMatchObject({ text: 'Your cart is empty.', calls: [], finalAnswer: true });
  });

  it('reports an Action it cannot read', () => {
    const parsed = parseToolCalls('Thought: hmm\nAction: I will look at the cart now', tools);
    expect(parsed.calls).toEqual([]);
    expect(parsed.unreadable).toHaveLength(1);
  });

  it('reads Action: f[value], the original ReAct style', () => {
    expect(calls('Thought: look\nAction: search_products[green tea]')).toEqual([
      { name: 'search_products', input: { query: 'green tea' } },
    ]);
  });

  it('reads a JSON Action', () => {
    expect(calls('Action: {"name": "get_cart", "arguments": {}}')).toEqual([{ name: 'get_cart', input: {} }]);
  });
});
