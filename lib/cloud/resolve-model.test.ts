import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from '../../tests/servers/provider-server';
import { isOllamaBaseURL, normalizeBaseURL, resolveModel } from './resolve-model';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});

describe('resolveModel', () => {
  it('resolves each provider with the model id after the first slash', () => {
    const base = { apiKey: 'sk-1234567890', baseURL: `${server.url}/v1` };
    expect(resolveModel('openai/gpt-5-mini', base, { fetch })).toMatchObject({
      provider: 'openai',
      modelId: 'gpt-5-mini',
      model: { provider: 'openai.responses', modelId: 'gpt-5-mini' },
    });
    expect(resolveModel('openai/gpt-4o', { ...base, openaiApi: 'chat' }, { fetch }).model).toMatchObject({ provider: 'openai.chat' });
    expect(resolveModel('anthropic/claude-sonnet-4-5', base, { fetch }).model).toMatchObject({ provider: 'anthropic.messages' });
    expect(
      resolveModel(
        'openai-compatible/meta-llama/llama-3.3-70b-instruct',
        { apiKey: 'k', baseURL: 'https://openrouter.ai/api/v1/' },
        { fetch },
      ),
    ).toMatchObject({
      modelId: 'meta-llama/llama-3.3-70b-instruct',
      baseURL: 'https://openrouter.ai/api/v1',
      model: { provider: 'openrouter.chat' },
    });
    expect(resolveModel('openai-compatible/qwen3:4b', { apiKey: '', baseURL: 'http://localhost:11434/v1' }, { fetch }).model).toMatchObject(
      {
        provider: 'ollama.chat',
      },
    );
  });

  it('uses the provider’s own URL when none is set', () => {
    expect(resolveModel('openai/gpt-5-mini', { apiKey: 'sk-1234567890' }, { fetch }).baseURL).toBe('https://api.openai.com/v1');
    expect(resolveModel('anthropic/claude', { apiKey: 'sk-1234567890' }, { fetch }).baseURL).toBe('https://api.anthropic.com/v1');
  });

  it('sends the key, through the injected fetch, with Anthropic’s browser header', async () => {
    const seen: string[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    server.script({ type: 'reply', text: 'hi' });
    const { model } = resolveModel(
      'anthropic/claude-x',
      { apiKey: 'sk-ant-abcdef123', baseURL: `${server.url}/v1` },
      { fetch: recordingFetch },
    );
    const { generateText } = await import('ai');
    await generateText({ model, prompt: 'hi', maxRetries: 0 });
    expect(seen).toEqual([`${server.url}/v1/messages`]);
    const { headers } = server.requests.at(-1)!;
    expect(headers['x-api-key']).toBe('sk-ant-abcdef123');
    expect(headers['anthropic-dangerous-direct-browser-access']).toBe('true');
  });

  it('explains names and settings that cannot work', () => {
    expect(() => resolveModel('gemini/pro', { apiKey: 'k' }, { fetch })).toThrow(
      'Unknown provider "gemini" in "gemini/pro". Name a model as openai/<model>, anthropic/<model> or openai-compatible/<model>.',
    );
    expect(() => resolveModel('openai/', { apiKey: 'k' }, { fetch })).toThrow('No model named in "openai/".');
    expect(() => resolveModel('anthropic/claude', { apiKey: '  ' }, { fetch })).toThrow(
      "No API key for Anthropic. Add one in the extension's options page.",
    );
    expect(() => resolveModel('openai-compatible/llama', { apiKey: '' }, { fetch })).toThrow(/needs a base URL/);
    expect(() => resolveModel('openai/gpt', { apiKey: 'k', baseURL: 'ftp://x' }, { fetch })).toThrow(
      'The base URL "ftp://x" must start with http:// or https://.',
    );
    expect(() => normalizeBaseURL('not a url', 'openai')).toThrow('The base URL "not a url" is not a URL.');
  });

  it('recognises a local Ollama by its port', () => {
    expect(isOllamaBaseURL('http://localhost:11434/v1')).toBe(true);
    expect(isOllamaBaseURL('http://localhost:1234/v1')).toBe(false);
    expect(isOllamaBaseURL(undefined)).toBe(false);
  });
});
