import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { createConnectionTestState } from './connection-test-state';

function setup(options: { dirty: boolean; saves: boolean }) {
  const calls: string[] = [];
  const client = {
    testConnection: async () => {
      calls.push('test');
      return { ok: true, message: 'Connected: gpt-test answered in 0.2 s.' };
    },
  };
  const save = async () => {
    calls.push('save');
    return options.saves;
  };
  return { state: createConnectionTestState(client, { dirty: signal(options.dirty), save }), calls };
}

describe('createConnectionTestState', () => {
  it('tests the saved settings at once when nothing is unsaved', async () => {
    const { state, calls } = setup({ dirty: false, saves: true });
    await state.testConnection();
    expect(calls).toEqual(['test']);
    expect(state.connection.value).toEqual({ state: 'done', ok: true, message: 'Connected: gpt-test answered in 0.2 s.' });
  });

  it('saves unsaved changes first', async () => {
    const { state, calls } = setup({ dirty: true, saves: true });
    await state.testConnection();
    expect(calls).toEqual(['save', 'test']);
  });

  it('tests nothing when the changes could not be saved, and says so', async () => {
    const { state, calls } = setup({ dirty: true, saves: false });
    await state.testConnection();
    expect(calls).toEqual(['save']);
    expect(state.connection.value).toEqual({
      state: 'done',
      ok: false,
      message: 'Not tested: fix the fields marked above, then try again.',
    });
  });

  it('runs one test at a time', async () => {
    const { state, calls } = setup({ dirty: false, saves: true });
    const first = state.testConnection();
    expect(state.connection.value).toEqual({ state: 'testing' });
    await state.testConnection();
    await first;
    expect(calls).toEqual(['test']);
  });
});
