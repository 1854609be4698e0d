import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse-tool-calls';
import type { ToolDescriptor } from '../agent/types';

const tools: ToolDescriptor[] = [
  {
    name: 'search_products',
    description: 'Search the catalog.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
  {
    name: 'add_to_cart',
    description: 'Add a product to the cart.',
    inputSchema: {
      type: 'object',
      properties: { productId: { type: 'string' }, quantity: { type: 'integer' }, size: { enum: ['S', 'M', 'L'] } },
      required: ['productId'],
    },
  },
  { name: 'get_cart', description: 'Read the cart.', inputSchema: { type: 'object', properties: {} } },
];

function calls(text: string) {
  return parseToolCalls(text, tools).calls.map(({ name, input }) => ({ name, input }));
}

describe('parseToolCalls: Qwen / Hermes', () => {
  it('reads a <tool_call> block', () => {
    const reply = '<tool_call>\n{"name": "search_products", "arguments": {"query": "blue running shoes"}}\n</tool_call>';
    expect(parseToolCalls(reply, tools)).toEqual({
      text: '',
      calls: [{ name: 'search_products', input: { query: 'blue running shoes' }, format: 'hermes', raw: reply }],
      unreadable: [],
    });
  });

  it('reads it after a <think> block, keeping the reasoning apart', () => {
    const reply =
      '<think>\nThe user wants blue shoes. I should search the catalog first, then add one.\n</think>\n\n<tool_call>\n{"name": "search_products", "arguments": {"query": "blue shoes"}}\n</tool_call><|im_end|>';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed.reasoning).toBe('The user wants blue shoes. I should search the catalog first, then add one.');
    expect(parsed.text).toBe('');
    expect(calls(reply)).toEqual([{ name: 'search_products', input: { query: 'blue shoes' } }]);
  });

  it('reads reasoning closed by a lone </think> (the template opened it)', () => {
    const reply = 'Just read the cart.\n</think>\n\n<tool_call>\n{"name": "get_cart", "arguments": {}}\n</tool_call>';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed.reasoning).toBe('Just read the cart.');
    expect(parsed.calls[0].name).toBe('get_cart');
  });

  it('reads several calls and the prose around them', () => {
    const reply =
      'Sure, adding both.\n<tool_call>\n{"name": "add_to_cart", "arguments": {"productId": "p1"}}\n</tool_call>\n<tool_call>\n{"name": "add_to_cart", "arguments": {"productId": "p2", "quantity": 2}}\n</tool_call>';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed.text).toBe('Sure, adding both.');
    expect(calls(reply)).toEqual([
      { name: 'add_to_cart', input: { productId: 'p1' } },
      { name: 'add_to_cart', input: { productId: 'p2', quantity: 2 } },
    ]);
  });

  it('reads a call whose closing tag never came (stopped on it)', () => {
    expect(calls('<tool_call>\n{"name": "get_cart", "arguments": {}}')).toEqual([{ name: 'get_cart', input: {} }]);
  });

  it('repairs broken JSON inside the markers', () => {
    const reply = "<tool_call>\n{'name': 'add_to_cart', 'arguments': {'productId': 'p1', 'quantity': 2,}}\n</tool_call>";
    expect(calls(reply)).toEqual([{ name: 'add_to_cart', input: { productId: 'p1', quantity: 2 } }]);
    expect(calls('<tool_call>{"name": "add_to_cart", "arguments": {"productId": "p1"</tool_call>')).toEqual([
      { name: 'add_to_cart', input: { productId: 'p1' } },
    ]);
  });

  it('reads arguments given as a JSON string', () => {
    const reply = '<tool_call>{"name": "search_products", "arguments": "{\\"query\\": \\"hat\\"}"}</tool_call>';
    expect(calls(reply)).toEqual([{ name: 'search_products', input: { query: 'hat' } }]);
  });

  it('reports a marker it cannot read', () => {
    const parsed = parseToolCalls('<tool_call>\nI want to search for shoes\n</tool_call>', tools);
    expect(parsed.calls).toEqual([]);
    expect(parsed.unreadable).toEqual(['<tool_call>\nI want to search for shoes\n</tool_call>']);
  });

  it('ignores an invented tool response and the turn after it', () => {
    const reply =
      '<tool_call>\n{"name": "get_cart", "arguments": {}}\n</tool_call>\n<tool_response>\n{"items": []}\n</tool_response>\nYour cart is empty!';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed.text).toBe('');
    expect(parsed.calls).toHaveLength(1);
  });

  it('reads Qwen3-Coder XML calls', () => {
    const reply =
      '<tool_call>\n<function=add_to_cart>\n<parameter=productId>\np1\n</parameter>\n<parameter=quantity>\n2\n</parameter>\n</function>\n</tool_call>';
    expect(calls(reply)).toEqual([{ name: 'add_to_cart', input: { productId: 'p1', quantity: 2 } }]);
  });
});

describe('parseToolCalls: LFM2', () => {
  it('reads Python-style calls between the markers', () => {
    const reply = '<|tool_call_start|>[search_products(query="wool socks")]<|tool_call_end|>Searching for wool socks.';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed.text).toBe('Searching for wool socks.');
    expect(parsed.calls).toMatchObject([{ name: 'search_products', input: { query: 'wool socks' }, format: 'lfm2' }]);
  });

  it('reads several calls, literals and positional arguments', () => {
    const reply =
      '<|tool_call_start|>[add_to_cart(productId=\'p1\', quantity=2, size="M"), add_to_cart("p2"), get_cart()]<|tool_call_end|>';
    expect(calls(reply)).toEqual([
      { name: 'add_to_cart', input: { productId: 'p1', quantity: 2, size: 'M' } },
      { name: 'add_to_cart', input: { productId: 'p2' } },
      { name: 'get_cart', input: {} },
    ]);
  });

  it('reads the calls when the pipeline stripped the markers', () => {
    expect(calls('[search_products(query="lamp")]')).toEqual([{ name: 'search_products', input: { query: 'lamp' } }]);
  });
});

describe('parseToolCalls: Llama', () => {
  it('reads bare JSON with "parameters"', () => {
    const reply = '{"name": "search_products", "parameters": {"query": "desk lamp"}}';
    expect(parseToolCalls(reply, tools).calls).toMatchObject([{ name: 'search_products', input: { query: 'desk lamp' }, format: 'json' }]);
  });

  it('reads JSON after <|python_tag|>, several separated by ;', () => {
    const reply =
      '<|python_tag|>{"name": "add_to_cart", "parameters": {"productId": "p1"}}; {"name": "get_cart", "parameters": {}}<|eom_id|>';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed.calls.map((c) => [c.name, c.format])).toEqual([
      ['add_to_cart', 'llama'],
      ['get_cart', 'llama'],
    ]);
    expect(parsed.text).toBe('');
  });

  it('reads the "type": "function" variant', () => {
    expect(calls('{"type": "function", "name": "get_cart", "parameters": {}}')).toEqual([{ name: 'get_cart', input: {} }]);
  });
});

describe('parseToolCalls: Phi-4-mini', () => {
  it('reads functools[...]', () => {
    const reply = 'functools[{"name": "search_products", "arguments": {"query": "mug"}}, {"name": "get_cart", "arguments": {}}]';
    expect(parseToolCalls(reply, tools).calls).toMatchObject([
      { name: 'search_products', input: { query: 'mug' }, format: 'phi' },
      { name: 'get_cart', input: {}, format: 'phi' },
    ]);
  });

  it('reads <|tool_call|> blocks', () => {
    expect(calls('<|tool_call|>[{"name": "get_cart", "arguments": {}}]<|/tool_call|>')).toEqual([{ name: 'get_cart', input: {} }]);
  });
});

describe('parseToolCalls: the inline JSON reply format', () => {
  it('reads one object per line with prose around', () => {
    const reply =
      'I will add it now.\n{"name": "add_to_cart", "arguments": {"productId": "p9", "quantity": 1}}\n{"name": "get_cart", "arguments": {}}';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed.text).toBe('I will add it now.');
    expect(calls(reply)).toEqual([
      { name: 'add_to_cart', input: { productId: 'p9', quantity: 1 } },
      { name: 'get_cart', input: {} },
    ]);
  });

  it('reads the LangChain action / action_input shape', () => {
    expect(calls('{"action": "search_products", "action_input": {"query": "tea"}}')).toEqual([
      { name: 'search_products', input: { query: 'tea' } },
    ]);
  });

  it('reads OpenAI-shaped tool_calls', () => {
    const reply = '{"tool_calls": [{"type": "function", "function": {"name": "get_cart", "arguments": "{}"}}]}';
    expect(calls(reply)).toEqual([{ name: 'get_cart', input: {} }]);
  });

  it('leaves JSON data that is not a call as prose', () => {
    const reply = 'The product is {"name": "Blue shoe", "price": 30}. Want it?';
    expect(parseToolCalls(reply, tools)).toEqual({ text: reply, calls: [], unreadable: [] });
    const namesATool = '{"name": "get_cart", "count": 2}';
    expect(parseToolCalls(namesATool, tools).calls).toEqual([]);
  });

  it('repairs a truncated bare call', () => {
    expect(calls('{"name": "search_products", "arguments": {"query": "tent"')).toEqual([
      { name: 'search_products', input: { query: 'tent' } },
    ]);
  });

  it('matches names loosely: case, dashes, a functions. prefix', () => {
    expect(calls('{"name": "Get-Cart", "arguments": {}}')).toEqual([{ name: 'get_cart', input: {} }]);
    expect(calls('{"name": "functions.get_cart", "arguments": {}}')).toEqual([{ name: 'get_cart', input: {} }]);
  });

  it('keeps calls to unknown tools (the loop answers them)', () => {
    expect(calls('{"name": "checkout", "arguments": {}}')).toEqual([{ name: 'checkout', input: {} }]);
  });
});

describe('parseToolCalls: fenced blocks', () => {
  it('reads ```json blocks holding a call', () => {
    const reply = 'Let me search.\n```json\n{"name": "search_products", "arguments": {"query": "kettle"}}\n```';
    const parsed = parseToolCalls(reply, tools);
    expect(parsed.text).toBe('Let me search.');
    expect(parsed.calls).toMatchObject([{ name: 'search_products', format: 'fenced' }]);
  });

  it('reads ```tool_call blocks', () => {
    expect(calls('```tool_call\n{"name": "get_cart", "arguments": {}}\n```')).toEqual([{ name: 'get_cart', input: {} }]);
  });

  it('reads ```tool_code blocks with Python calls of known tools', () => {
    expect(calls('```tool_code\nsearch_products(query="rug")\n```')).toEqual([{ name: 'search_products', input: { query: 'rug' } }]);
  });

  it('leaves other code blocks alone', () => {
    const reply = 'Here is the data:\n```json\n{"total": 42}\n```';
    expect(parseToolCalls(reply, tools).text).toBe(reply);
  });
});

describe('parseToolCalls: plain replies', () => {
  it('returns prose with no calls', () => {
    expect(parseToolCalls('Your cart has 2 items.', tools)).toEqual({ text: 'Your cart has 2 items.', calls: [], unreadable: [] });
  });

  it('strips control tokens from prose', () => {
    expect(parseToolCalls('Done!<|im_end|>\n<|im_start|>user\nthanks', tools).text).toBe('Done!');
  });

  it('does not take a tool name in prose for a call', () => {
    expect(parseToolCalls('You can use get_cart() to see the cart, or search_products.', tools).calls).toEqual([]);
  });

  it('refuses a name that only appears once escapes are decoded', () => {
    const parsed = parseToolCalls('<tool_call>{"name": "get\\u005fcart", "arguments": {}}</tool_call>', tools);
    expect(parsed.calls).toEqual([]);
    expect(parsed.unreadable).toHaveLength(1);
  });

  it('handles non-string input', () => {
    expect(parseToolCalls(undefined as unknown as string, tools)).toEqual({ text: '', calls: [], unreadable: [] });
  });
});

describe('parseToolCalls: properties', () => {
  const loose = (s: string) => s.toLowerCase().replace(/-/g, '_');
  const fragments = fc.constantFrom(
    '<tool_call>',
    '</tool_call>',
    '<think>',
    '</think>',
    '<|tool_call_start|>',
    '<|tool_call_end|>',
    '<|python_tag|>',
    'functools[',
    '```json\n',
    '```',
    'Action: ',
    'Action Input: ',
    'Final Answer: ',
    'Observation: ',
    '**Thought:** ',
    '{"name": "',
    '"arguments": {',
    '"parameters": ',
    '}',
    ']',
    '[',
    '(',
    ')',
    '="',
    '"',
    "'",
    ',',
    '\n',
    'search_products',
    'get_cart',
    'add_to_cart',
    'checkout',
    'query',
  );
  const replyArb = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.array(fc.oneof(fragments, fc.string({ maxLength: 8 })), { maxLength: 40 }).map((parts) => parts.join('')),
  );

  it('never throws', () => {
    fc.assert(
      fc.property(replyArb, (reply) => {
        const parsed = parseToolCalls(reply, tools);
        expect(Array.isArray(parsed.calls)).toBe(true);
        expect(typeof parsed.text).toBe('string');
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 2000) },
    );
  });

  it('never returns a call whose name is not written in the text', () => {
    fc.assert(
      fc.property(replyArb, (reply) => {
        for (const call of parseToolCalls(reply, tools).calls) {
          expect(loose(reply)).toContain(loose(call.name));
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 2000) },
    );
  });

  it('finds nothing in text that names no tool and has no call syntax', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }).filter((s) => !/[{[(<`:]/.test(s)),
        (reply) => {
          expect(parseToolCalls(reply, tools).calls).toEqual([]);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('round-trips any call written in the Hermes format', () => {
    const argsArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
    fc.assert(
      fc.property(fc.constantFrom(...tools.map((t) => t.name)), argsArb, fc.string({ maxLength: 40 }), (name, args, prose) => {
        const clean = prose.replace(/[<{[`]/g, '');
        const reply = `${clean}\n<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
        const parsed = parseToolCalls(reply, tools);
        expect(parsed.calls.map((c) => ({ name: c.name, input: c.input }))).toEqual([{ name, input: JSON.parse(JSON.stringify(args)) }]);
      }),
      { numRuns: 500 },
    );
  });
});
