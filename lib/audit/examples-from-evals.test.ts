import { describe, expect, it } from 'vitest';
import { examplesFromEvals } from './examples-from-evals';

describe('examplesFromEvals', () => {
  it('takes each case’s last user message and the first tool it expects, groups included', () => {
    expect(
      examplesFromEvals([
        {
          name: 'Find mugs',
          messages: [{ role: 'user', type: 'message', content: 'Do you have mugs?' }],
          expectedCall: [{ functionName: 'search_products', arguments: { query: 'mug' } }],
        },
        {
          messages: [
            { role: 'user', type: 'message', content: 'Hi' },
            { role: 'model', type: 'message', content: 'Hello' },
            { role: 'user', type: 'message', content: 'Two products' },
          ],
          expectedCall: [{ unordered: [{ ordered: [{ functionName: 'open_product' }] }, { functionName: 'get_cart' }] }],
        },
      ]),
    ).toEqual([
      { tool: 'search_products', request: 'Do you have mugs?', source: 'eval case “Find mugs”' },
      { tool: 'open_product', request: 'Two products', source: 'eval case “2”' },
    ]);
  });

  it('skips cases that expect no call, or do not end on a request', () => {
    expect(
      examplesFromEvals([
        { name: 'Nothing', messages: [{ role: 'user', type: 'message', content: 'Hello' }], expectedCall: null },
        { name: 'Empty', messages: [{ role: 'user', type: 'message', content: 'x' }], expectedCall: [] },
        { name: 'Model last', messages: [{ role: 'model', type: 'message', content: 'x' }], expectedCall: [{ functionName: 'a' }] },
      ]),
    ).toEqual([]);
  });
});
