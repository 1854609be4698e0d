import { createConnection } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from '../../tests/servers/provider-server';
import type { AgentStreamPart } from '../agent/types';
import type { CloudSettings } from './cloud-settings';
import { createCloudAdapter } from './create-cloud-adapter';
import { OLLAMA_ORIGINS_HINT, redactKey } from './map-cloud-error';

// Errors are produced for real: the provider packages talk to the loopback server, which answers as the
// services do, and the adapter maps what the packages throw.

const KEY = 'sk-live-9c2e71d04ab5f3e8';
let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer({ apiKey: KEY });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function settingsFor(provider: CloudSettings['provider'], extra: Partial<CloudSettings> = {}): CloudSettings {
  return { provider, model: 'test-model', apiKey: KEY, baseURL: `${server.url}/v1`, ...extra };
}

async function lastPart(settings: CloudSettings, maxRetries = 0): Promise<AgentStreamPart> {
  const parts: AgentStreamPart[] = [];
  const run = createCloudAdapter(settings, { fetch, maxRetries }).run({
    messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'Hello' }] }],
    tools: [],
    signal: new AbortController().signal,
    callTool: async () => ({ content: [] }),
  });
  for await (const part of run) parts.push(part);
  return parts.at(-1)!;
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('a refused key (401/403)', () => {
  it('OpenAI: says the key was refused and where to fix it, never quoting the key', async () => {
    const part = await lastPart(settingsFor('openai', { apiKey: 'sk-wrong-0123456789abcdef' }));
    expect(part).toEqual({
      type: 'error',
      error: "OpenAI refused the API key (401). Check the key in the extension's options page.",
    });
  });

  it('Anthropic: the same, for its own 401', async () => {
    const part = await lastPart(settingsFor('anthropic', { apiKey: 'sk-ant-wrong-0123456789' }));
    expect(part).toEqual({
      type: 'error',
      error: "Anthropic refused the API key (401). Check the key in the extension's options page.",
    });
  });

  it('a 403 counts as a refused key too', async () => {
    server.script({ type: 'error', status: 403, message: 'Project does not have access to model test-model' });
    const part = await lastPart(settingsFor('openai', { openaiApi: 'chat' }));
    expect(part).toMatchObject({ type: 'error', error: expect.stringContaining('refused the API key (403)') });
  });
});

describe('rate limits (429)', () => {
  it('is rate_limited, with the provider’s words', async () => {
    server.script({ type: 'error', status: 429, message: 'You exceeded your current quota.', headers: { 'retry-after-ms': '1' } });
    expect(await lastPart(settingsFor('openai'))).toEqual({
      type: 'error',
      code: 'rate_limited',
      error: 'OpenAI is limiting requests for this key (429): You exceeded your current quota. Wait a moment and try again.',
    });
  });

  it('is retried first, honouring retry-after, and a later success is a normal run', async () => {
    server.script(
      { type: 'error', status: 429, message: 'Slow down', headers: { 'retry-after-ms': '1' } },
      { type: 'error', status: 529, message: 'Overloaded', headers: { 'retry-after-ms': '1' } },
      { type: 'reply', text: 'Hi there.' },
    );
    expect(await lastPart(settingsFor('anthropic'), 2)).toEqual({ type: 'finish', reason: 'stop' });
    expect(server.requests).toHaveLength(3);
  });
});

describe('bad requests (400)', () => {
  it('is bad_request with the provider’s own message (OpenAI)', async () => {
    server.script({ type: 'error', status: 400, message: "Invalid schema for function 'get_cart': 'object' is not valid." });
    expect(await lastPart(settingsFor('openai'))).toEqual({
      type: 'error',
      code: 'bad_request',
      error: "OpenAI rejected the request (400): Invalid schema for function 'get_cart': 'object' is not valid.",
    });
  });

  it('is bad_request with the provider’s own message (Anthropic), and a key quoted by the provider is redacted', async () => {
    server.script({ type: 'error', status: 400, message: `messages: text content blocks must be non-empty (key ${KEY})` });
    const part = await lastPart(settingsFor('anthropic'));
    expect(part).toEqual({
      type: 'error',
      code: 'bad_request',
      error: 'Anthropic rejected the request (400): messages: text content blocks must be non-empty (key [API key]).',
    });
  });
});

describe('server errors (5xx)', () => {
  it('passes the provider’s message on, without a code', async () => {
    server.script({ type: 'error', status: 500, message: 'The server had an error while processing your request.' });
    expect(await lastPart(settingsFor('openai', { openaiApi: 'chat' }))).toEqual({
      type: 'error',
      error: 'OpenAI failed (500): The server had an error while processing your request. Try again in a moment.',
    });
  });
});

describe('errors inside a started stream', () => {
  it('Anthropic overloaded mid-reply says so', async () => {
    server.script({ type: 'stream-error', after: 3, reply: { type: 'reply', text: 'Partly there, then' }, message: 'Overloaded' });
    expect(await lastPart(settingsFor('anthropic'))).toEqual({
      type: 'error',
      error: 'Anthropic is overloaded right now (529): Overloaded. Try again in a moment.',
    });
  });

  it.each(['openai', 'openai-compatible'] as const)('%s: an error event passes the provider’s message on', async (provider) => {
    server.script({
      type: 'stream-error',
      after: 2,
      reply: { type: 'reply', text: 'Partly there, then' },
      message: 'The model had an internal error.',
    });
    const part = await lastPart(settingsFor(provider));
    expect(part).toMatchObject({ type: 'error', error: expect.stringContaining('The model had an internal error.') });
    expect(JSON.stringify(part)).not.toContain(KEY);
  });
});

describe('the network', () => {
  it('an unreachable host is network, naming the URL', async () => {
    const closed = await startProviderServer();
    const url = closed.url;
    await closed.close();
    const part = await lastPart({ provider: 'openai', model: 'm', apiKey: KEY, baseURL: `${url}/v1` });
    expect(part).toEqual({
      type: 'error',
      code: 'network',
      error: `Could not reach ${url}/v1/responses. Check your connection and the base URL in the extension's options page.`,
    });
  });

  it.each(['anthropic', 'openai', 'openai-compatible'] as const)(
    '%s: a connection dropped mid-reply is network, said as a cut',
    async (provider) => {
      server.script({ type: 'drop', after: 4, reply: { type: 'reply', text: 'This answer will never be finished, sadly.' } });
      const part = await lastPart(settingsFor(provider));
      expect(part).toMatchObject({ type: 'error', code: 'network' });
      expect((part as { error: string }).error).toMatch(/^The connection to .* broke off in the middle of the reply\./);
    },
  );

  it('an unreachable local Ollama gets the OLLAMA_ORIGINS hint', async (context) => {
    if (!(await portIsFree(11434))) context.skip();
    const part = await lastPart({ provider: 'openai-compatible', model: 'qwen3:4b', apiKey: '', baseURL: 'http://127.0.0.1:11434/v1' });
    expect(part).toMatchObject({ type: 'error', code: 'network' });
    expect((part as { error: string }).error).toBe(
      `Could not reach http://127.0.0.1:11434/v1/chat/completions. Check your connection and the base URL in the extension's options page. ${OLLAMA_ORIGINS_HINT}`,
    );
  });

  it('Ollama’s 403 to an extension origin gets the OLLAMA_ORIGINS hint, not "wrong key"', async (context) => {
    if (!(await portIsFree(11434))) context.skip();
    const ollama = await startProviderServer({ port: 11434 });
    try {
      ollama.script({ type: 'error', status: 403, message: '' });
      const part = await lastPart({ provider: 'openai-compatible', model: 'qwen3:4b', apiKey: '', baseURL: `${ollama.url}/v1` });
      expect(part).toEqual({ type: 'error', error: `Ollama refused the request (403). ${OLLAMA_ORIGINS_HINT}` });
      expect(ollama.requests[0].headers.authorization).toBeUndefined();
    } finally {
      await ollama.close();
    }
  });
});

describe('redactKey', () => {
  it('replaces every occurrence of the key, and leaves text alone without a real key', () => {
    expect(redactKey(`a ${KEY} b ${KEY}`, KEY)).toBe('a [API key] b [API key]');
    expect(redactKey('nothing here', KEY)).toBe('nothing here');
    expect(redactKey('short abc', 'abc')).toBe('short abc');
    expect(redactKey('no key', undefined)).toBe('no key');
  });
});
