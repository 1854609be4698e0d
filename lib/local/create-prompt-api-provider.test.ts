import { describe, expect, it } from 'vitest';
import {
  createPromptApiProvider,
  type LanguageModelLike,
  NO_PROMPT_API,
  PROMPT_API_UNAVAILABLE,
  type PromptApiAvailability,
  type PromptApiMessage,
} from './create-prompt-api-provider';

// Chrome's LanguageModel cannot run in Node: this mock records what the provider hands it and answers like the API.
function mockLanguageModel(availability: PromptApiAvailability, reply = 'Hello.') {
  const created: { initialPrompts?: PromptApiMessage[] }[] = [];
  const prompts: string[] = [];
  let destroyed = 0;
  const api: LanguageModelLike = {
    availability: async () => availability,
    create: async (options = {}) => {
      options.signal?.throwIfAborted();
      created.push({ initialPrompts: options.initialPrompts });
      if (options.monitor) {
        const target = new EventTarget();
        options.monitor(target);
        for (const loaded of [0.25, 1]) target.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded }));
      }
      return {
        inputQuota: 100,
        inputUsage: (options.initialPrompts ?? []).reduce((n, m) => n + m.content.length, 0),
        measureInputUsage: async (input: string) => input.length,
        prompt: (input: string, o?: { signal?: AbortSignal }) =>
          new Promise<string>((resolve, reject) => {
            prompts.push(input);
            if (o?.signal?.aborted) return reject(o.signal.reason);
            o?.signal?.addEventListener('abort', () => reject(o.signal?.reason));
            if (reply !== 'never') resolve(reply);
          }),
        destroy: () => {
          destroyed++;
        },
      };
    },
  };
  return { api, created, prompts, destroyed: () => destroyed };
}

describe('createPromptApiProvider', () => {
  it('is unavailable, with the reason, where the browser has no Prompt API', async () => {
    const p = createPromptApiProvider(undefined);
    expect(await p.status()).toEqual({ state: 'unavailable', reason: NO_PROMPT_API });
    await expect(p.prepare(() => {})).rejects.toThrow(NO_PROMPT_API);
    expect(await createPromptApiProvider(mockLanguageModel('unavailable').api).status()).toEqual({
      state: 'unavailable',
      reason: PROMPT_API_UNAVAILABLE,
    });
  });

  it('maps availability to adapter statuses and reports Chrome’s own download progress', async () => {
    expect(await createPromptApiProvider(mockLanguageModel('available').api).status()).toEqual({ state: 'ready' });
    expect(await createPromptApiProvider(mockLanguageModel('downloadable').api).status()).toMatchObject({
      state: 'needs-download',
    });
    const progress: number[] = [];
    await createPromptApiProvider(mockLanguageModel('downloadable').api).prepare((v) => progress.push(v));
    expect(progress).toEqual([0, 0.25, 1, 1]);
  });

  it('sends the history as initial prompts, tool results as user turns, and prompts with the last user turn', async () => {
    const mock = mockLanguageModel('available', 'It costs 3 EUR.');
    const p = createPromptApiProvider(mock.api);
    expect(p.toolsInline).toBe(true);
    expect(p.callFormat).toBe('text');
    const reply = await p.generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Price?' },
        { role: 'assistant', content: '<tool_call>{"name":"price","arguments":{}}</tool_call>' },
        { role: 'tool', content: '3 EUR', name: 'price', tool_call_id: 'a' },
        { role: 'user', content: 'So, the price?' },
      ],
      signal: new AbortController().signal,
    });
    expect(reply).toBe('It costs 3 EUR.');
    expect(mock.created[0].initialPrompts).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Price?' },
      { role: 'assistant', content: '<tool_call>{"name":"price","arguments":{}}</tool_call>' },
      { role: 'user', content: 'Result of price:\n3 EUR' },
    ]);
    expect(mock.prompts).toEqual(['So, the price?']);
    expect(mock.destroyed()).toBe(1);
  });

  it('stops when the signal aborts and measures fit against the session quota', async () => {
    const mock = mockLanguageModel('available', 'never');
    const p = createPromptApiProvider(mock.api);
    const controller = new AbortController();
    const run = p.generate({ messages: [{ role: 'user', content: 'Talk' }], signal: controller.signal });
    controller.abort(new DOMException('Stopped', 'AbortError'));
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(await p.fits({ messages: [{ role: 'user', content: 'x'.repeat(50) }], maxNewTokens: 50 })).toBe(true);
    expect(await p.fits({ messages: [{ role: 'user', content: 'x'.repeat(50) }], maxNewTokens: 51 })).toBe(false);
  });
});
