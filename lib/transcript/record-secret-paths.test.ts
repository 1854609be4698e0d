import { describe, expect, it } from 'vitest';
import type { AgentMessage, AgentStreamPart } from '../agent/types';
import { recordSecretPaths } from './record-secret-paths';

const conversation = (): AgentMessage[] => [
  { id: 'u', role: 'user', parts: [{ type: 'text', text: 'log me in and pay' }] },
  {
    id: 'a',
    role: 'assistant',
    parts: [
      { type: 'tool', id: 'c1', name: 'log_in', input: { password: 'hunter22' }, state: 'running' },
      {
        type: 'tool',
        id: 'd1',
        name: 'delegate_to_checkout',
        input: { task: 'pay' },
        state: 'running',
        agent: {
          id: 'checkout',
          messages: [{ id: 's', role: 'assistant', parts: [{ type: 'tool', id: 'c2', name: 'pay', input: {}, state: 'running' }] }],
        },
      },
    ],
  },
];

const PATHS: Record<string, string[][]> = { log_in: [['password']], pay: [['card', 'cvv']] };
const pathsFor = (call: { name: string }) => PATHS[call.name] ?? [];

describe('recordSecretPaths', () => {
  it('keeps the paths on the call a tool-call or tool-result names, a sub-agent’s nested call too', () => {
    const first = recordSecretPaths(conversation(), { type: 'tool-call', messageId: 'a', id: 'c1', name: 'log_in', input: {} }, pathsFor);
    expect(first[1].parts[0]).toMatchObject({ id: 'c1', secretPaths: [['password']] });
    const nested: AgentStreamPart = {
      type: 'agent-part',
      id: 'd1',
      agentId: 'checkout',
      part: { type: 'tool-result', id: 'c2', output: { content: [] } },
    };
    const second = recordSecretPaths(first, nested, pathsFor);
    const delegate = second[1].parts[1];
    expect(delegate.type === 'tool' && delegate.agent?.messages[0].parts[0]).toMatchObject({ id: 'c2', secretPaths: [['card', 'cvv']] });
    // What did not change is shared, not copied.
    expect(second[0]).toBe(first[0]);
    expect(second[1].parts[0]).toBe(first[1].parts[0]);
  });

  it('merges with the paths a call already kept, and changes nothing for other parts or calls without secrets', () => {
    const messages = recordSecretPaths(conversation(), { type: 'tool-error', id: 'c1', error: 'x' }, () => [['password'], ['otp']]);
    const again = recordSecretPaths(messages, { type: 'tool-result', id: 'c1', output: { content: [] } }, () => [['otp'], ['pin']]);
    expect(again[1].parts[0]).toMatchObject({ secretPaths: [['password'], ['otp'], ['pin']] });
    expect(recordSecretPaths(again, { type: 'tool-result', id: 'c1', output: { content: [] } }, () => [['pin']])).toBe(again);
    expect(recordSecretPaths(again, { type: 'text-delta', messageId: 'a', delta: 'hi' }, () => [['x']])).toBe(again);
    expect(recordSecretPaths(again, { type: 'tool-result', id: 'unknown', output: { content: [] } }, () => [['x']])).toBe(again);
    const plain = conversation();
    expect(recordSecretPaths(plain, { type: 'tool-call', messageId: 'a', id: 'c1', name: 'log_in', input: {} }, () => [])).toBe(plain);
  });
});
