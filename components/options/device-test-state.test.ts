import { describe, expect, it } from 'vitest';
import type { TestDeviceReply } from '../../lib/messaging/options-messages';
import { createDeviceTestState } from './device-test-state';

function setup(reply: TestDeviceReply) {
  const calls: string[] = [];
  let answer: () => void = () => {};
  const client = {
    testDevice: (id: string) => {
      calls.push(`test-device ${id}`);
      return new Promise<TestDeviceReply>((resolve) => {
        answer = () => resolve(reply);
      });
    },
  };
  const refresh = async () => {
    calls.push('refresh');
  };
  return { state: createDeviceTestState(client, refresh), calls, answer: () => answer() };
}

describe('createDeviceTestState', () => {
  it('tests one model at a time, then lists the models again for the stored figures', async () => {
    const result = {
      modelId: 'org/small',
      device: 'webgpu' as const,
      dtype: 'q4f16' as const,
      testedAt: '2026-12-01T03:00:00.000Z',
      promptTokens: 1012,
      firstTokenMs: 850,
      tokensPerSecond: 24.5,
      newTokens: 64,
      memoryBytes: 600,
      memorySource: 'weights+kv' as const,
    };
    const { state, calls, answer } = setup({ ok: true, result });
    const run = state.testDevice('org/small');
    expect(state.deviceTest.value).toEqual({ modelId: 'org/small', state: 'testing' });
    await state.testDevice('org/large');
    answer();
    await run;
    expect(calls).toEqual(['test-device org/small', 'refresh']);
    expect(state.deviceTest.value).toBeUndefined();
  });

  it('keeps a failed test and its reason with the model, without listing again', async () => {
    const { state, calls, answer } = setup({ ok: false, message: 'Download the model first.' });
    const run = state.testDevice('org/large');
    answer();
    await run;
    expect(calls).toEqual(['test-device org/large']);
    expect(state.deviceTest.value).toEqual({ modelId: 'org/large', state: 'failed', message: 'Download the model first.' });
  });
});
