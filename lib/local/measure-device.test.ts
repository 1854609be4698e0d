import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../agent/local-provider';
import { DEVICE_TEST_PROMPT } from './device-test-prompt';
import { type MeasurableProvider, measureDevice, type DeviceTestPhase } from './measure-device';

type Stats = MeasurableProvider['lastGeneration'];

/** A provider whose clock and stream are scripted: each delta advances the fake clock by `stepMs`. */
function fakeProvider(opts: {
  clock: { t: number };
  deltas?: number;
  firstMs?: number;
  stepMs?: number;
  stats?: Stats;
  stored?: number | undefined;
  fail?: 'prepare' | 'generate';
}) {
  const seen: { req?: GenerateRequest; unloads: number } = { unloads: 0 };
  let loaded = true;
  const provider: MeasurableProvider = {
    id: 'test/model',
    toolsInline: false,
    get loaded() {
      return loaded;
    },
    lastGeneration: opts.stats,
    device: async () => ({ device: 'webgpu', dtype: 'q4f16', numThreads: 1 }),
    prepare: async (onProgress) => {
      if (opts.fail === 'prepare') throw new Error('no space left');
      onProgress(1);
      loaded = true;
    },
    generate: async (req) => {
      seen.req = req;
      if (opts.fail === 'generate') throw new Error('GPU device lost');
      opts.clock.t += opts.firstMs ?? 0;
      for (let i = 0; i < (opts.deltas ?? 0); i++) {
        if (i > 0) opts.clock.t += opts.stepMs ?? 0;
        req.onText?.('x');
      }
      return 'x'.repeat(opts.deltas ?? 0);
    },
    storedBytes: async () => ('stored' in opts ? opts.stored : 1_000_000),
    unload: async () => {
      seen.unloads++;
      loaded = false;
    },
  };
  return { provider, seen };
}

describe('measureDevice', () => {
  it('takes time to first token and decode speed from the engine’s figures, and memory as weights plus KV cache', async () => {
    const clock = { t: 0 };
    const { provider, seen } = fakeProvider({
      clock,
      deltas: 3,
      stats: { promptTokens: 1012, reusedTokens: 0, newTokens: 41, firstTokenMs: 850, totalMs: 850 + 2000, kvBytes: 5_000_000 },
    });
    const phases: DeviceTestPhase[] = [];
    const result = await measureDevice(provider, {
      now: () => clock.t,
      date: () => new Date('2026-12-01T03:00:00Z'),
      onPhase: (p) => phases.push(p),
    });
    expect(result).toEqual({
      modelId: 'test/model',
      device: 'webgpu',
      dtype: 'q4f16',
      testedAt: '2026-12-01T03:00:00.000Z',
      promptTokens: 1012,
      firstTokenMs: 850,
      tokensPerSecond: 20, // 40 tokens after the first in 2 s
      newTokens: 41,
      memoryBytes: 6_000_000,
      memorySource: 'weights+kv',
    });
    // The prompt is read whole: the model is unloaded and loaded again first, and the fixed prompt goes with its tools.
    expect(seen.unloads).toBe(1);
    expect(seen.req?.messages).toEqual(DEVICE_TEST_PROMPT.messages);
    expect(seen.req?.tools).toEqual(DEVICE_TEST_PROMPT.tools);
    expect(phases.map((p) => p.phase)).toEqual(['loading', 'loading', 'reading', 'writing', 'writing', 'writing']);
  });

  it('falls back to its own clock and the text stream when the engine reports no figures', async () => {
    const clock = { t: 100 };
    const { provider } = fakeProvider({ clock, deltas: 11, firstMs: 500, stepMs: 100 });
    const result = await measureDevice(provider, { now: () => clock.t });
    expect(result.firstTokenMs).toBe(500);
    expect(result.newTokens).toBe(11);
    expect(result.tokensPerSecond).toBe(10); // 10 deltas after the first in 1 s
    expect(result.memoryBytes).toBe(1_000_000);
    expect(result.memorySource).toBe('weights');
  });

  it('gives no decode speed when the model wrote fewer than two tokens, rather than a made-up one', async () => {
    const clock = { t: 0 };
    const { provider } = fakeProvider({
      clock,
      stats: { promptTokens: 900, reusedTokens: 0, newTokens: 1, firstTokenMs: 300, totalMs: 300 },
    });
    const result = await measureDevice(provider, { now: () => clock.t });
    expect(result.tokensPerSecond).toBeUndefined();
    expect(result.firstTokenMs).toBe(300);
  });

  it('says why it failed: not downloaded, the load, or the generation', async () => {
    const clock = { t: 0 };
    await expect(measureDevice(fakeProvider({ clock, stored: undefined }).provider)).rejects.toThrow(/not downloaded on this device/);
    await expect(measureDevice(fakeProvider({ clock, fail: 'prepare' }).provider)).rejects.toThrow('The model did not load: no space left');
    await expect(measureDevice(fakeProvider({ clock, fail: 'generate' }).provider)).rejects.toThrow(
      'The model failed while generating: GPU device lost',
    );
  });
});

describe('DEVICE_TEST_PROMPT', () => {
  it('is a realistic tool-calling step of about 1,000 tokens: a system prompt, six compact tools, one request', () => {
    const chars = JSON.stringify(DEVICE_TEST_PROMPT.tools).length + DEVICE_TEST_PROMPT.messages.reduce((n, m) => n + m.content.length, 0);
    // About 3.5 characters a token for English and JSON, before the chat template's own tokens.
    expect(chars).toBeGreaterThan(3000);
    expect(chars).toBeLessThan(4200);
    expect(DEVICE_TEST_PROMPT.tools).toHaveLength(6);
    expect(DEVICE_TEST_PROMPT.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });
});
