import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../agent/types';
import { createLiveCalls } from './create-live-calls';

const CONVERSATION: AgentMessage[] = [
  { id: 'a1', role: 'assistant', parts: [{ type: 'tool', id: 'c1', name: 'pay', input: {}, state: 'running' }] },
];

describe('createLiveCalls', () => {
  it('lays a call’s live state over the conversation, and tells the panel when it is set or ends', () => {
    let told = 0;
    const live = createLiveCalls(() => told++);
    expect(live.over(CONVERSATION)).toBe(CONVERSATION);
    live.set('c1', { state: 'awaiting-confirmation', prompt: 'Allow pay?' });
    expect(told).toBe(1);
    expect(live.over(CONVERSATION)[0].parts[0]).toMatchObject({ state: 'awaiting-confirmation', prompt: 'Allow pay?' });
    expect(CONVERSATION[0].parts[0]).toMatchObject({ state: 'running' });
    live.end('c1');
    expect(told).toBe(2);
    expect(live.state('c1')).toBeUndefined();
  });

  it('forgets and clears without a word: the caller tells the panel once, after its own change', () => {
    let told = 0;
    const live = createLiveCalls(() => told++);
    live.set('c1', { state: 'running' });
    live.set('c2', { state: 'running' });
    live.forget('c1');
    expect(live.state('c1')).toBeUndefined();
    live.clear();
    expect(live.state('c2')).toBeUndefined();
    expect(told).toBe(2);
  });
});
