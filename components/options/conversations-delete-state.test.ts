import { describe, expect, it } from 'vitest';
import { createConversationsDeleteState } from './conversations-delete-state';

function setup(reply: { ok: true } | { ok: false; message: string } = { ok: true }) {
  const calls: string[] = [];
  let answer: () => void = () => {};
  const client = {
    deleteConversations: () => {
      calls.push('delete conversations');
      return new Promise<typeof reply>((resolve) => {
        answer = () => resolve(reply);
      });
    },
  };
  return { state: createConversationsDeleteState(client), calls, answer: () => answer() };
}

describe('createConversationsDeleteState', () => {
  it('deletes only on the second click, showing the deletion while it runs', async () => {
    const { state, calls, answer } = setup();
    await state.confirmDeleteConversations();
    expect(calls).toEqual([]);
    state.requestDeleteConversations();
    expect(state.conversationsDelete.value).toBe('confirming');
    const run = state.confirmDeleteConversations();
    expect(state.conversationsDelete.value).toBe('deleting');
    expect(state.conversationsNotice.value).toEqual({ tone: 'info', text: 'Deleting…' });
    answer();
    await run;
    expect(calls).toEqual(['delete conversations']);
    expect(state.conversationsDelete.value).toBe('idle');
    expect(state.conversationsNotice.value).toEqual({
      tone: 'success',
      text: 'All conversations were deleted, here and in open side panels.',
    });
  });

  it('deletes nothing after Cancel', async () => {
    const { state, calls } = setup();
    state.requestDeleteConversations();
    state.cancelDeleteConversations();
    expect(state.conversationsDelete.value).toBe('idle');
    await state.confirmDeleteConversations();
    expect(calls).toEqual([]);
  });

  it('says why the host refused', async () => {
    const { state, answer } = setup({ ok: false, message: 'The agent host did not answer.' });
    state.requestDeleteConversations();
    const run = state.confirmDeleteConversations();
    answer();
    await run;
    expect(state.conversationsNotice.value).toEqual({
      tone: 'error',
      text: 'The conversations were not deleted: The agent host did not answer.',
    });
  });
});
