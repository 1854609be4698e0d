import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentMessage } from '../agent/types';
import type { CallRecord } from '../messaging/call-record';
import type { Transcript } from '../transcript/build-transcript';
import { exportTabTranscript } from './export-tab-transcript';

afterEach(() => {
  vi.useRealTimers();
});

const KEY = 'sk-test-0123456789abcdef';
const messages: AgentMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: `log me in, my key is ${KEY}` }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      {
        type: 'tool',
        id: 'c1',
        name: 'log_in',
        input: { user: 'ada', password: 'hunter2', pin: '4321' },
        state: 'done',
        output: { content: [{ type: 'text', text: 'Welcome, ada.' }] },
      },
    ],
  },
];
const logIn = {
  name: 'log_in',
  inputSchema: {
    type: 'object',
    properties: { user: { type: 'string' }, password: { type: 'string', format: 'password' }, pin: { type: 'string' } },
  },
};
const timeline: CallRecord[] = [
  { id: 'c1', at: Date.parse('2026-05-01T10:20:00Z'), by: 'agent', tool: 'log_in', input: {}, state: 'done', durationMs: 42 },
];
const tab = {
  messages,
  tools: [logIn],
  page: { url: 'https://shop.test/login', title: 'Log in' },
  agent: { id: 'shop' },
  timeline,
};
const adapter = { kind: 'cloud', label: 'Cloud', model: 'gpt-test' };

describe('exportTabTranscript', () => {
  it('exports JSON named after the moment, with who answered, the page and the call’s timing', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-05-01T10:20:30.123Z'));
    const { text, fileName } = exportTabTranscript('json', { adapter, secrets: [] }, tab);
    expect(fileName).toBe('webmcp-agent-transcript-2026-05-01-10-20-30.json');
    expect(text.endsWith('}\n')).toBe(true);
    const transcript = JSON.parse(text) as Transcript;
    expect(transcript.source).toEqual({ adapter, agent: { id: 'shop' }, page: { url: 'https://shop.test/login', title: 'Log in' } });
    expect(transcript.messages[1].parts[0]).toMatchObject({ type: 'tool', name: 'log_in', durationMs: 42 });
  });

  it('masks what the page’s tools mark secret, what the person marked, and the saved keys', () => {
    const { text } = exportTabTranscript('json', { adapter, secrets: [KEY], secretFields: { log_in: ['pin'] } }, tab);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('4321');
    expect(text).not.toContain(KEY);
    expect(text).toContain('ada');
  });

  it('exports Markdown under a .md name, with the same masking', () => {
    const { text, fileName } = exportTabTranscript('markdown', { adapter, secrets: [KEY] }, tab);
    expect(fileName).toMatch(/^webmcp-agent-transcript-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.md$/);
    expect(text).toContain('log_in');
    expect(text).toContain('Welcome, ada.');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain(KEY);
  });

  it('names no page without a URL and no agent when none applies', () => {
    const { text } = exportTabTranscript('json', { adapter, secrets: [] }, { ...tab, page: { url: '', title: 'Blank' }, agent: undefined });
    expect((JSON.parse(text) as Transcript).source).toEqual({ adapter });
  });
});
