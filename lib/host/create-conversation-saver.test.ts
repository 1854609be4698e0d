import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentMessage } from '../agent/types';
import { createConversationSaver } from './create-conversation-saver';

afterEach(() => {
  vi.useRealTimers();
});

const say = (text: string): AgentMessage => ({ id: text, role: 'user', parts: [{ type: 'text', text }] });

/** A store that records what it was asked to write, and answers each write when told to. */
function recordingStore() {
  const written: { tabId: number; texts: string[] }[] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  return {
    written,
    pending,
    save: (tabId: number, conversation: { messages: AgentMessage[] }) =>
      new Promise<void>((resolve, reject) => {
        written.push({ tabId, texts: conversation.messages.map((m) => (m.parts[0]?.type === 'text' ? m.parts[0].text : '')) });
        pending.push({ resolve, reject });
      }),
  };
}

describe('createConversationSaver', () => {
  it('writes a burst of changes once, after the delay, with the conversation as it is then', async () => {
    vi.useFakeTimers();
    const store = recordingStore();
    let messages = [say('hi')];
    const saver = createConversationSaver({ tabId: 7, store, delayMs: 250, conversation: () => ({ messages }) });
    saver.schedule();
    messages = [say('hi'), say('there')];
    saver.schedule();
    await vi.advanceTimersByTimeAsync(249);
    expect(store.written).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.written).toEqual([{ tabId: 7, texts: ['hi', 'there'] }]);
  });

  it('flush writes now, in place of the write that was due, and resolves once written', async () => {
    vi.useFakeTimers();
    const store = recordingStore();
    const saver = createConversationSaver({ tabId: 1, store, delayMs: 250, conversation: () => ({ messages: [say('now')] }) });
    saver.schedule();
    let flushed = false;
    const flush = saver.flush().then(() => {
      flushed = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.written).toHaveLength(1);
    expect(flushed).toBe(false);
    store.pending[0].resolve();
    await flush;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.written).toHaveLength(1);
  });

  it('writes one after the other, each with the conversation as it was when the write started', async () => {
    const store = recordingStore();
    let messages = [say('first')];
    const saver = createConversationSaver({ tabId: 1, store, delayMs: 10, conversation: () => ({ messages }) });
    const first = saver.flush();
    messages = [say('second')];
    const second = saver.flush();
    messages = [say('third')];
    // The second write waits for the first to end, but was read when flush was called.
    await vi.waitFor(() => expect(store.written).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.written.map((w) => w.texts)).toEqual([['first']]);
    store.pending[0].resolve();
    await first;
    await vi.waitFor(() => expect(store.written).toHaveLength(2));
    expect(store.written[1].texts).toEqual(['second']);
    let settled = false;
    const all = saver.settled().then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    store.pending[1].resolve();
    await second;
    await all;
    expect(settled).toBe(true);
  });

  it('never rejects when the store fails, and the next write goes through', async () => {
    const store = recordingStore();
    const saver = createConversationSaver({ tabId: 1, store, delayMs: 10, conversation: () => ({ messages: [say('x')] }) });
    const failed = saver.flush();
    await vi.waitFor(() => expect(store.pending).toHaveLength(1));
    store.pending[0].reject(new Error('QUOTA_BYTES quota exceeded'));
    await expect(failed).resolves.toBeUndefined();
    const next = saver.flush();
    await vi.waitFor(() => expect(store.written).toHaveLength(2));
    store.pending[1].resolve();
    await expect(next).resolves.toBeUndefined();
  });
});
