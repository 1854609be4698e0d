import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from '../../tests/servers/provider-server';
import { listModels } from './list-models';

const KEY = 'sk-list-test-77aa01bc';
let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer({ apiKey: KEY });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

describe('listModels', () => {
  it('OpenAI: chat models only, sorted, with the key as a Bearer token', async () => {
    server.setModels(['gpt-5-mini', 'text-embedding-3-small', 'gpt-4o', 'whisper-1', 'dall-e-3', 'o4-mini']);
    const listing = await listModels({ provider: 'openai', apiKey: KEY, baseURL: `${server.url}/v1` }, { fetch });
    expect(listing).toEqual({
      ok: true,
      models: [
        { id: 'gpt-4o', label: 'gpt-4o' },
        { id: 'gpt-5-mini', label: 'gpt-5-mini' },
        { id: 'o4-mini', label: 'o4-mini' },
      ],
    });
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('Anthropic: display names in the provider’s order, with its headers', async () => {
    server.setModels(['claude-sonnet-4-5', 'claude-haiku-4-5']);
    const listing = await listModels({ provider: 'anthropic', apiKey: KEY, baseURL: `${server.url}/v1` }, { fetch });
    expect(listing).toEqual({
      ok: true,
      models: [
        { id: 'claude-sonnet-4-5', label: 'Claude Sonnet 4 5' },
        { id: 'claude-haiku-4-5', label: 'Claude Haiku 4 5' },
      ],
    });
    const { headers } = server.requests[0];
    expect(headers['x-api-key']).toBe(KEY);
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers['anthropic-dangerous-direct-browser-access']).toBe('true');
  });

  it('an OpenAI-compatible server without a key gets no Authorization header', async () => {
    const local = await startProviderServer({ models: ['qwen3:4b', 'llama3.2:3b'] });
    try {
      const listing = await listModels({ provider: 'openai-compatible', apiKey: '', baseURL: `${local.url}/v1/` }, { fetch });
      expect(listing).toEqual({
        ok: true,
        models: [
          { id: 'llama3.2:3b', label: 'llama3.2:3b' },
          { id: 'qwen3:4b', label: 'qwen3:4b' },
        ],
      });
      expect(local.requests[0].headers.authorization).toBeUndefined();
    } finally {
      await local.close();
    }
  });

  it('a refused key is said like a run’s', async () => {
    const listing = await listModels({ provider: 'anthropic', apiKey: 'sk-ant-nope-1234567890', baseURL: `${server.url}/v1` }, { fetch });
    expect(listing).toEqual({ ok: false, message: "Anthropic refused the API key (401). Check the key in the extension's options page." });
  });

  it('an unreachable host is network', async () => {
    const closed = await startProviderServer();
    await closed.close();
    const listing = await listModels({ provider: 'openai-compatible', apiKey: '', baseURL: `${closed.url}/v1` }, { fetch });
    expect(listing).toMatchObject({ ok: false, code: 'network', message: expect.stringContaining(closed.url) });
  });

  it('an answer that is not a model list says so', async () => {
    const other = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"running"}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const listing = await listModels({ provider: 'openai-compatible', apiKey: '', baseURL: url }, { fetch });
      expect(listing).toEqual({ ok: false, message: `${url}/models did not answer with a model list.` });
    } finally {
      other.close();
    }
  });
});
