import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestModel } from '../../scripts/make-test-model';
import { createMemoryModelCache } from '../../tests/model/memory-model-cache';
import { type ModelHost, startModelHost } from '../../tests/servers/model-host';
import { connectTransformersEngine, ENGINE_STOPPED } from './connect-transformers-engine';
import type { EnginePort } from './engine-messages';
import type { LocalModelSpec } from './model-catalog';
import { serveTransformersEngine } from './serve-transformers-engine';

// Both ends of the Worker protocol over a real MessageChannel (structured clone and all), with the real engine behind.

const files = buildTestModel({
  reply: '<tool_call>\n{"name": "search", "arguments": {}}\n</tool_call>',
  afterToolResult: 'Done.',
  triggers: [{ word: 'ramble', reply: 'more and ', loop: true }],
});
let host: ModelHost;
const model = (id: string): LocalModelSpec => ({
  id,
  label: id,
  brief: 'Test model.',
  bytes: { q4: 1 },
  callFormat: 'template',
  toolsInline: false,
  toolCallEnd: '</tool_call>',
  contextTokens: 4096,
  hardware: 'Any.',
});

function connect() {
  const channel = new MessageChannel();
  serveTransformersEngine(channel.port2 as unknown as EnginePort, {
    facts: { cpuDevice: 'cpu' },
    cache: createMemoryModelCache(),
  });
  const client = connectTransformersEngine(channel.port1 as unknown as EnginePort, {
    remoteHost: host.url,
    idleUnloadMs: 0,
  });
  return { client, close: () => channel.port1.close() };
}

beforeAll(async () => {
  host = await startModelHost({ 'test/worker-a': files, 'test/worker-b': files });
});
afterAll(async () => {
  await host.close();
});

describe('connectTransformersEngine + serveTransformersEngine', () => {
  it('prepares with progress, generates with streamed text, and mirrors the model state', async () => {
    const { client, close } = connect();
    const p = client.provider(model('test/worker-a'));
    expect(client.provider(model('test/worker-a'))).toBe(p);
    expect(await p.isCached()).toBe(false);
    expect(await p.device()).toMatchObject({ device: 'cpu', dtype: 'q4' });
    const progress: number[] = [];
    await p.prepare((v) => progress.push(v));
    expect(progress.at(-1)).toBe(1);
    expect(p.loaded).toBe(true);
    let streamed = '';
    const reply = await p.generate({
      messages: [{ role: 'user', content: 'find it' }],
      signal: new AbortController().signal,
      onText: (d) => {
        streamed += d;
      },
    });
    expect(reply).toBe('<tool_call>\n{"name": "search", "arguments": {}}\n</tool_call>');
    expect(streamed).toBe(reply);
    expect(p.lastGeneration?.newTokens).toBeGreaterThan(0);
    expect(await p.fits({ messages: [{ role: 'user', content: 'x' }], maxNewTokens: 10 })).toBe(true);
    close();
  });

  it('aborts across the boundary with the host signal’s own reason, and keeps one model in memory', async () => {
    const { client, close } = connect();
    const unloaded: string[] = [];
    client.onUnloaded((id) => unloaded.push(id));
    const a = client.provider(model('test/worker-a'));
    const b = client.provider(model('test/worker-b'));
    await a.prepare(() => {});
    const controller = new AbortController();
    const timeout = new DOMException('The step took too long.', 'TimeoutError');
    const run = a.generate({
      messages: [{ role: 'user', content: 'ramble' }],
      maxNewTokens: 5000,
      signal: controller.signal,
      onText: () => controller.abort(timeout),
    });
    await expect(run).rejects.toBe(timeout);
    expect(a.lastGeneration?.newTokens).toBeLessThan(20);

    await b.prepare(() => {});
    expect(unloaded).toEqual(['test/worker-a']);
    expect(a.loaded).toBe(false);
    expect(b.loaded).toBe(true);
    await b.deleteModel();
    expect(await b.isCached()).toBe(false);
    close();
  });

  it('rejects pending and later calls with a clear message when the Worker dies', async () => {
    // A Worker that fails to start cannot be made in Node: this port stands in for one and fires its error event.
    const mockWorker = new EventTarget() as EventTarget & EnginePort;
    const sent: unknown[] = [];
    mockWorker.postMessage = (m) => sent.push(m);
    const client = connectTransformersEngine(mockWorker);
    const p = client.provider(model('test/never'));
    const pending = p.isCached();
    mockWorker.dispatchEvent(Object.assign(new Event('error'), { message: 'Refused to load the script' }));
    await expect(pending).rejects.toThrow(`${ENGINE_STOPPED}: Refused to load the script`);
    await expect(p.device()).rejects.toThrow(ENGINE_STOPPED);
    expect(sent[0]).toEqual({ line: 'notice', type: 'engine/configure', request: { config: {} } });
  });

  it('fails a pending prepare, with the message the panel shows, when the Worker’s end of the line closes', async () => {
    // A real MessageChannel whose far end answers nothing and then closes (as a Worker's port that went away).
    const channel = new MessageChannel();
    const client = connectTransformersEngine(channel.port1 as unknown as EnginePort);
    const progress: number[] = [];
    const pending = client.provider(model('test/never')).prepare((v) => progress.push(v));
    channel.port2.close();
    await expect(pending).rejects.toThrow(`${ENGINE_STOPPED}.`);
    expect(progress).toEqual([]);
  });
});
