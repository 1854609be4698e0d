import type { GenerateRequest } from '../agent/local-provider';
import type { DeviceChoice } from './choose-device';
import type { GenerationStats } from './generate-reply';
import { DEVICE_TEST_PROMPT, type DeviceTestPrompt } from './device-test-prompt';
import { errorMessage } from '../shared/error-message';
import type { DeviceTestResult } from '../messaging/options-messages';

export type { DeviceTestResult };

/** The provider slice the test uses (a TransformersProvider, in the Worker or not). */
export interface MeasurableProvider {
  readonly id: string;
  readonly toolsInline: boolean;
  readonly loaded: boolean;
  readonly lastGeneration: (GenerationStats & { kvBytes?: number }) | undefined;
  device: () => Promise<DeviceChoice>;
  prepare: (onProgress: (progress: number) => void, signal?: AbortSignal) => Promise<void>;
  generate: (req: GenerateRequest & { onText?: (delta: string) => void }) => Promise<string>;
  storedBytes: () => Promise<number | undefined>;
  /** Free the model, so the test reads the whole prompt with no KV cache left from a conversation. */
  unload: () => Promise<void>;
}

/** Where a run is, for the page's progress line. */
export type DeviceTestPhase = { phase: 'loading'; progress: number } | { phase: 'reading' } | { phase: 'writing'; tokens: number };

interface MeasureDeviceOptions {
  signal?: AbortSignal;
  onPhase?: (phase: DeviceTestPhase) => void;
  /** The clock (ms): performance.now by default; the figures fall back to it when the engine reports none. */
  now?: () => number;
  /** The date stamped on the result. */
  date?: () => Date;
  prompt?: DeviceTestPrompt;
}

/**
 * Run the fixed tool-calling prompt once through the real engine and report time to first token, decode speed and
 * memory held. The model is unloaded first and loaded again, so the prompt is read whole (a KV cache left by a
 * conversation would make the first token look faster than a person's first step is). Time to first token and the
 * token count come from the engine (token-exact, measured beside the model); without them, from this clock and the
 * text stream. Throws, in words, when the model is not on this device or the engine fails.
 */
export async function measureDevice(provider: MeasurableProvider, options: MeasureDeviceOptions = {}): Promise<DeviceTestResult> {
  const now = options.now ?? (() => performance.now());
  const prompt = options.prompt ?? DEVICE_TEST_PROMPT;
  const signal = options.signal ?? new AbortController().signal;
  const weights = await provider.storedBytes();
  if (weights === undefined) throw new Error('This model is not downloaded on this device: download it first.');
  const { device, dtype } = await provider.device();

  if (provider.loaded) await provider.unload();
  options.onPhase?.({ phase: 'loading', progress: 0 });
  try {
    await provider.prepare((progress) => options.onPhase?.({ phase: 'loading', progress }), signal);
  } catch (error) {
    throw new Error(`The model did not load: ${errorMessage(error)}`);
  }

  options.onPhase?.({ phase: 'reading' });
  let firstAt: number | undefined;
  let deltas = 0;
  const started = now();
  try {
    await provider.generate({
      messages: prompt.messages,
      ...(provider.toolsInline ? {} : { tools: prompt.tools }),
      maxNewTokens: prompt.maxNewTokens,
      signal,
      onText: () => {
        firstAt ??= now();
        deltas++;
        options.onPhase?.({ phase: 'writing', tokens: deltas });
      },
    });
  } catch (error) {
    throw new Error(`The model failed while generating: ${errorMessage(error)}`);
  }
  const ended = now();

  const stats = provider.lastGeneration;
  const newTokens = stats?.newTokens ?? deltas;
  const firstTokenMs = stats ? stats.firstTokenMs : (firstAt ?? ended) - started;
  const totalMs = stats ? stats.totalMs : ended - started;
  const decodeMs = totalMs - firstTokenMs;
  const kv = stats?.kvBytes;
  return {
    modelId: provider.id,
    device,
    dtype,
    testedAt: (options.date?.() ?? new Date()).toISOString(),
    promptTokens: stats?.promptTokens ?? 0,
    firstTokenMs: Math.round(firstTokenMs),
    ...(newTokens >= 2 && decodeMs > 0 ? { tokensPerSecond: round1(((newTokens - 1) * 1000) / decodeMs) } : {}),
    newTokens,
    memoryBytes: weights + (kv ?? 0),
    memorySource: kv !== undefined ? 'weights+kv' : 'weights',
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
