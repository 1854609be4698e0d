import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../agent/types';
import { buildTranscript } from './build-transcript';
import { REDACTED } from './redact-secrets';
import { transcriptToMarkdown } from './transcript-to-markdown';

const KEY = 'sk-live-abcdef123456';
const messages: AgentMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: `Pay with my card 4111111111111111. My key is ${KEY}` }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'reasoning', text: 'Need to pay.', providerMetadata: { openai: { itemId: 'x' } } },
      {
        type: 'tool',
        id: 'call-1',
        name: 'pay',
        input: { card: '4111111111111111', amount: 12 },
        state: 'done',
        output: { content: [{ type: 'text', text: 'Paid with 4111111111111111.' }] },
      },
      { type: 'tool', id: 'call-2', name: 'refund', input: {}, state: 'error', error: 'Error [tool_error]: nope' },
      {
        type: 'tool',
        id: 'call-3',
        name: 'delegate_to_checkout',
        input: { task: 'check out' },
        state: 'done',
        output: { content: [{ type: 'text', text: 'Checked out.' }] },
        agent: { id: 'checkout', messages: [{ id: 's1', role: 'assistant', parts: [{ type: 'text', text: 'Done ```` sneaky' }] }] },
      },
      { type: 'text', text: `Done. (Your key ${KEY} was not used.)` },
    ],
  },
];

const build = () =>
  buildTranscript(messages, {
    source: {
      adapter: { kind: 'cloud', label: 'Cloud', model: 'gpt-x' },
      agent: { id: 'shop' },
      page: { url: 'https://shop.example/', title: 'Shop' },
    },
    timeline: [{ id: 'call-1', at: Date.UTC(2026, 0, 1), by: 'agent', tool: 'pay', input: {}, state: 'done', durationMs: 42 }],
    secrets: { values: [KEY], fields: new Map([['pay', new Set(['card'])]]) },
    now: new Date(Date.UTC(2026, 0, 2)),
  });

describe('buildTranscript', () => {
  it('carries messages, calls with arguments, results, timings, error codes, the model and the agent', () => {
    const transcript = build();
    expect(transcript).toMatchObject({ format: 'webmcp-agent-transcript', version: 1, exportedAt: '2026-01-02T00:00:00.000Z' });
    expect(transcript.source).toEqual({
      adapter: { kind: 'cloud', label: 'Cloud', model: 'gpt-x' },
      agent: { id: 'shop' },
      page: { url: 'https://shop.example/', title: 'Shop' },
    });
    const parts = transcript.messages[1].parts;
    expect(parts[1]).toMatchObject({
      type: 'tool',
      name: 'pay',
      input: { amount: 12 },
      state: 'done',
      durationMs: 42,
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(parts[2]).toMatchObject({ name: 'refund', state: 'error', errorCode: 'tool_error' });
    expect(parts[3]).toMatchObject({ agent: { id: 'checkout', messages: [{ role: 'assistant' }] } });
    expect(JSON.stringify(transcript)).not.toContain('providerMetadata');
  });

  it('never contains the key or a value typed into a secret field, anywhere', () => {
    const text = JSON.stringify(build());
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('4111111111111111');
    expect(build().messages[1].parts[1]).toMatchObject({ input: { card: REDACTED } });
    expect(transcriptToMarkdown(build())).not.toMatch(/sk-live|4111/);
  });
});

describe('transcriptToMarkdown', () => {
  it('reads as a conversation, with page text fenced so it cannot break out', () => {
    const md = transcriptToMarkdown(build());
    expect(md).toMatch(/^# Conversation on Shop\n/);
    expect(md).toContain('- Agent: Cloud (gpt-x)');
    expect(md).toContain('**Tool call** `pay`: done in 42 ms');
    expect(md).toContain('**Tool call** `refund`: error [tool_error]');
    expect(md).toContain('`````text\nDone ```` sneaky\n`````');
  });
});
