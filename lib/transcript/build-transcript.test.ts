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
    secrets: { values: [KEY], fields: new Map([['pay', [['card']]]]) },
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

describe('buildTranscript and the paths a call kept', () => {
  const kept: AgentMessage[] = [
    {
      id: 'a',
      role: 'assistant',
      parts: [
        {
          type: 'tool',
          id: 'c1',
          name: 'log_in',
          input: { username: 'ada', password: 'hunter2-secret' },
          state: 'done',
          secretPaths: [['password']],
          output: { content: [{ type: 'text', text: 'Welcome ada (password hunter2-secret accepted).' }] },
        },
        {
          type: 'tool',
          id: 'd1',
          name: 'delegate_to_checkout',
          input: { task: 'pay' },
          state: 'done',
          agent: {
            id: 'checkout',
            messages: [
              {
                id: 's',
                role: 'assistant',
                parts: [
                  {
                    type: 'tool',
                    id: 'c2',
                    name: 'pay',
                    input: { amount: 5, card: { number: '4111111111111111', cvv: '7373' }, pins: [{ pin: '99887' }] },
                    state: 'done',
                    secretPaths: [
                      ['card', 'cvv'],
                      ['pins', '*', 'pin'],
                    ],
                  },
                  { type: 'text', text: 'Paid with cvv 7373 and pin 99887.' },
                ],
              },
            ],
          },
        },
        { type: 'text', text: 'Logged in with hunter2-secret.' },
      ],
    },
  ];
  const source = { adapter: { kind: 'cloud', label: 'Cloud' } };

  it('masks them at any depth, with no tool on the page to say so, and redacts their values everywhere', () => {
    const transcript = buildTranscript(kept, { source, secrets: { values: [] } });
    const text = `${JSON.stringify(transcript)}\n${transcriptToMarkdown(transcript)}`;
    expect(text).not.toMatch(/hunter2-secret|7373|99887/);
    expect(transcript.messages[0].parts[0]).toMatchObject({ input: { username: 'ada', password: REDACTED } });
    const nested = transcript.messages[0].parts[1];
    expect(nested.type === 'tool' && nested.agent?.messages[0].parts[0]).toMatchObject({
      input: { amount: 5, card: { number: '4111111111111111', cvv: REDACTED }, pins: [{ pin: REDACTED }] },
    });
    expect(text).not.toContain('secretPaths');
  });

  it('adds the paths named per tool (the page’s tools now, the person’s marks) to those a call kept', () => {
    const transcript = buildTranscript(kept, { source, secrets: { values: [], fields: new Map([['pay', [['card', 'number']]]]) } });
    expect(JSON.stringify(transcript)).not.toContain('4111111111111111');
    // Without either, a value is exported as it was: the masking comes from the paths, not from guessing.
    const bare = kept.map((m) => ({ ...m, parts: m.parts.map((p) => (p.type === 'tool' ? { ...p, secretPaths: undefined } : p)) }));
    expect(JSON.stringify(buildTranscript(bare, { source, secrets: { values: [] } }))).toContain('hunter2-secret');
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

  it('says which tab and site each call of a task across tabs ran on, in JSON and in Markdown', () => {
    const transcript = buildTranscript(messages, {
      source: { adapter: { kind: 'local', label: 'On-device' } },
      timeline: [
        {
          id: 'call-1',
          at: 0,
          by: 'agent',
          tool: 'recipes_example__pay',
          tab: { tabId: 7, site: 'https://recipes.example' },
          input: {},
          state: 'done',
        },
      ],
      secrets: { values: [] },
    });
    expect(transcript.messages[1].parts[1]).toMatchObject({ tab: { tabId: 7, site: 'https://recipes.example' } });
    expect(transcript.messages[1].parts[2]).not.toHaveProperty('tab');
    expect(transcriptToMarkdown(transcript)).toContain('**Tool call** `pay` (tab 7, https://recipes.example): done');
  });
});
