import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from '../../tests/servers/provider-server';
import type { CloudSettings } from './cloud-settings';
import { testConnection } from './test-connection';

const KEY = 'sk-conn-test-5be1d2c3';
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

describe('testConnection', () => {
  it.each([
    ['openai', {}, 'responses'],
    ['openai', { openaiApi: 'chat' as const }, 'chat'],
    ['anthropic', {}, 'anthropic'],
    ['openai-compatible', {}, 'chat'],
  ] as const)('%s %o: one small request, reported in words', async (provider, extra, protocol) => {
    server.script({ type: 'reply', text: 'OK' });
    const report = await testConnection(settingsFor(provider, extra), { fetch });
    expect(report).toEqual({ ok: true, message: expect.stringMatching(/^Connected: test-model answered in \d+\.\d s\.$/) });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.protocol).toBe(protocol);
    expect(request.body.stream).toBeUndefined();
    const cap = request.body.max_output_tokens ?? request.body.max_tokens ?? request.body.max_completion_tokens;
    expect(cap).toBe(16);
  });

  it('reports a refused key without quoting it, and does not retry', async () => {
    const report = await testConnection(settingsFor('openai', { apiKey: 'sk-wrong-abcdef0123456' }), { fetch });
    expect(report).toEqual({ ok: false, message: "OpenAI refused the API key (401). Check the key in the extension's options page." });
    expect(server.requests).toHaveLength(1);
  });

  it('reports an unknown model with the provider’s words', async () => {
    server.script({ type: 'error', status: 404, message: 'model: claude-nope', errorType: 'not_found_error' });
    const report = await testConnection(settingsFor('anthropic', { model: 'claude-nope' }), { fetch });
    expect(report).toEqual({ ok: false, code: 'bad_request', message: 'Anthropic rejected the request (404): model: claude-nope.' });
  });

  it('reports an unreachable host as network', async () => {
    const closed = await startProviderServer();
    await closed.close();
    const report = await testConnection({ provider: 'openai-compatible', model: 'm', apiKey: '', baseURL: `${closed.url}/v1` }, { fetch });
    expect(report).toMatchObject({
      ok: false,
      code: 'network',
      message: expect.stringContaining(`Could not reach ${closed.url}/v1/chat/completions`),
    });
  });

  it('gives up after the timeout on a host that never answers', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const report = await testConnection(
        { provider: 'openai', model: 'm', apiKey: KEY, baseURL: `http://127.0.0.1:${port}/v1` },
        { fetch, timeoutMs: 300 },
      );
      expect(report).toEqual({ ok: false, code: 'network', message: `No answer from http://127.0.0.1:${port}/v1 within 0.3 s.` });
    } finally {
      silent.close();
    }
  });

  it('reports settings that cannot work before any request', async () => {
    expect(await testConnection({ provider: 'openai-compatible', model: 'm', apiKey: '' }, { fetch })).toEqual({
      ok: false,
      message:
        'An OpenAI-compatible provider needs a base URL, for example http://localhost:11434/v1 for Ollama or http://localhost:1234/v1 for LM Studio.',
    });
    expect(server.requests).toHaveLength(0);
  });
});
