import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../agent/types';
import { createSpotlight } from '../page-data/spotlight';
import { toModelMessages } from './to-model-messages';

const spotlight = createSpotlight('t');
const data = (tool: string, text: string, untrusted = false) =>
  `<page-data-t tool="${tool}" source="page"${untrusted ? ' untrusted="true"' : ''}>\n${text}\n</page-data-t>`;

describe('toModelMessages', () => {
  it('keeps reasoning and call metadata as provider options, follows calls with their results, and splits text after them', () => {
    const messages: AgentMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Add a mug' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'Search first.', providerMetadata: { anthropic: { signature: 'sig-1' } } },
          {
            type: 'tool',
            id: 'c1',
            name: 'search.products',
            input: { query: 'mug' },
            state: 'done',
            output: { content: [{ type: 'text', text: 'Blue mug' }] },
            providerMetadata: { openai: { itemId: 'fc_1' } },
          },
          { type: 'text', text: 'Found a blue mug.' },
        ],
      },
    ];
    expect(toModelMessages(messages, undefined, { spotlight })).toEqual([
      { role: 'user', content: 'Add a mug' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Search first.', providerOptions: { anthropic: { signature: 'sig-1' } } },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'search_products',
            input: { query: 'mug' },
            providerOptions: { openai: { itemId: 'fc_1' } },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'search_products',
            output: { type: 'text', value: data('search_products', 'Blue mug') },
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Found a blue mug.' }] },
    ]);
  });

  it('gives every call a result: its error, or a note that it never finished', () => {
    const messages: AgentMessage[] = [
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'tool', id: 'e', name: 'pay', input: {}, state: 'error', error: 'Error [tool_threw]: card declined' },
          { type: 'tool', id: 'x', name: 'pay', input: {}, state: 'cancelled', error: 'Error [cancelled]: stopped.' },
          { type: 'tool', id: 'r', name: 'pay', input: 'not an object', state: 'running' },
        ],
      },
    ];
    const [assistant, tool] = toModelMessages(messages, (name) => `p_${name}`, { spotlight, isUntrusted: (name) => name === 'pay' });
    expect(assistant).toMatchObject({ role: 'assistant', content: [{ toolName: 'p_pay' }, { toolName: 'p_pay' }, { input: {} }] });
    expect(tool).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'e',
          toolName: 'p_pay',
          output: { type: 'error-text', value: data('p_pay', 'Error [tool_threw]: card declined', true) },
        },
        {
          type: 'tool-result',
          toolCallId: 'x',
          toolName: 'p_pay',
          output: { type: 'error-text', value: data('p_pay', 'Error [cancelled]: stopped.', true) },
        },
        {
          type: 'tool-result',
          toolCallId: 'r',
          toolName: 'p_pay',
          output: { type: 'error-text', value: data('p_pay', 'Error: the call did not finish.', true) },
        },
      ],
    });
  });

  it('makes call ids from elsewhere acceptable to every provider, keeping calls and results paired', () => {
    const [assistant, tool] = toModelMessages([
      {
        id: 'a',
        role: 'assistant',
        parts: [{ type: 'tool', id: 'local:1/2', name: 'get_cart', input: {}, state: 'done', output: { content: [] } }],
      },
    ]);
    expect(assistant).toMatchObject({ content: [{ toolCallId: 'local_1_2' }] });
    expect(tool).toMatchObject({ content: [{ toolCallId: 'local_1_2' }] });
  });

  it('skips empty turns and joins a user turn’s texts', () => {
    expect(
      toModelMessages([
        {
          id: 'u',
          role: 'user',
          parts: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
        { id: 'a', role: 'assistant', parts: [] },
        { id: 'u2', role: 'user', parts: [{ type: 'text', text: '  ' }] },
        {
          id: 'a2',
          role: 'assistant',
          parts: [
            { type: 'text', text: '' },
            { type: 'reasoning', text: 'hm' },
          ],
        },
      ]),
    ).toEqual([
      { role: 'user', content: 'one\n\ntwo' },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'hm' }] },
    ]);
  });
});
