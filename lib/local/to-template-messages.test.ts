import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../local-agent/parse-tool-calls';
import { toTemplateMessages } from './to-template-messages';

describe('toTemplateMessages', () => {
  it('lfm: the template never sees tool_calls, only the call written as the model writes it', () => {
    const turns = toTemplateMessages(
      [
        {
          role: 'assistant',
          content: 'Looking.',
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'f', arguments: { a: 'x "q"', n: 1.5, b: true, z: null, l: [1, 'y'], o: { k: false } } },
            },
            { id: 'c2', type: 'function', function: { name: 'g', arguments: {} } },
          ],
        },
        { role: 'tool', content: 'ok', tool_call_id: 'c1', name: 'f' },
      ],
      'pythonic',
    );
    expect(turns[0]).toEqual({
      role: 'assistant',
      content: 'Looking.<|tool_call_start|>[f(a="x \\"q\\"", n=1.5, b=True, z=None, l=[1, "y"], o={"k": False}), g()]<|tool_call_end|>',
    });
    expect(turns[1]).toEqual({ role: 'tool', content: 'ok', tool_call_id: 'c1', name: 'f' });
    // And the parser reads what history wrote back to the same call.
    const back = parseToolCalls(String(turns[0].content), [{ name: 'f' }, { name: 'g' }]);
    expect(back.calls.map((c) => c.input)).toEqual([{ a: 'x "q"', n: 1.5, b: true, z: null, l: [1, 'y'], o: { k: false } }, {}]);
  });

  it('structured templates get the turns as they are, tool_calls included', () => {
    const call = { id: 'c1', type: 'function' as const, function: { name: 'f', arguments: { a: 1 } } };
    expect(toTemplateMessages([{ role: 'assistant', content: '', tool_calls: [call] }])).toEqual([
      { role: 'assistant', content: '', tool_calls: [call] },
    ]);
  });
});
