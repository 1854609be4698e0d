/**
 * The scripted test model served over loopback HTTP, and providers over it: what the Node tests of the
 * transformers.js provider and its parts (resumable fetch, KV-prefix reuse, generation controls) share.
 */
import { afterAll, beforeAll } from 'vitest';
import type { ChatTurn } from '../../lib/agent/local-provider';
import type { ToolDescriptor } from '../../lib/agent/types';
import { createTransformersProvider, type TransformersProviderOptions } from '../../lib/local/create-transformers-provider';
import type { LocalModelSpec } from '../../lib/local/model-catalog';
import { buildTestModel, type TestModelScript } from '../../scripts/make-test-model';
import { type ModelHost, startModelHost } from '../servers/model-host';
import { createMemoryModelCache } from './memory-model-cache';

export const CALL = '<tool_call>\n{"name": "search", "arguments": {"query": "socks"}}\n</tool_call>';
const script: TestModelScript = {
  reply: CALL,
  afterToolResult: 'Found 3 pairs of socks.',
  triggers: [
    { word: 'ramble', reply: 'and so on, ', loop: true },
    { word: 'chatty', reply: `${CALL} and then some words after the call.` },
  ],
  contextTokens: 4096,
};
const files = buildTestModel(script);
export const modelFile = 'onnx/model_q4.onnx';
export const modelBytes = (files.get(modelFile) as Uint8Array).byteLength;

export const tools: ToolDescriptor[] = [
  {
    name: 'search',
    description: 'Search the shop for products by keyword.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
];
export const user = (content: string): ChatTurn => ({ role: 'user', content });
export const system: ChatTurn = { role: 'system', content: 'You are a shopping assistant.' };
export const afterCall: ChatTurn[] = [
  {
    role: 'assistant',
    content: '',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: { query: 'socks' } } }],
  },
  { role: 'tool', content: '3 results: red, blue, green', tool_call_id: 'c1', name: 'search' },
];

export const signal = () => new AbortController().signal;

/** The model host of one test file (started before its tests, closed after), and providers over its models. */
export function useScriptedModelHost() {
  let host: ModelHost;
  let counter = 0;

  beforeAll(async () => {
    host = await startModelHost();
  });
  afterAll(async () => {
    await host.close();
  });

  /** A fresh model id (so the library's per-file memos never mix scenarios). */
  const nextId = (prefix: string) => `test/${prefix}-${counter++}`;

  /** A fresh model id, served by the host. */
  function spec(overrides: Partial<LocalModelSpec> = {}): LocalModelSpec {
    const id = nextId('scripted');
    host.addModel(id, files);
    return {
      id,
      label: 'Scripted',
      brief: 'Test model.',
      bytes: { q4: modelBytes },
      callFormat: 'template',
      toolsInline: false,
      toolCallEnd: '</tool_call>',
      contextTokens: 4096,
      hardware: 'Any.',
      ...overrides,
    };
  }

  function provider(model: LocalModelSpec, options: Partial<TransformersProviderOptions> = {}) {
    return createTransformersProvider({
      model,
      facts: { cpuDevice: 'cpu' },
      remoteHost: host.url,
      cache: createMemoryModelCache(),
      idleUnloadMs: 0,
      retryDelayMs: 5,
      ...options,
    });
  }

  return {
    get host() {
      return host;
    },
    nextId,
    spec,
    provider,
  };
}
