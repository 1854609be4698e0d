import { beforeAll, describe, expect, it } from 'vitest';
import { afterCall, CALL, system, tools, user, useScriptedModelHost } from '../../tests/model/scripted-model-fixture';
import { createMemoryModelCache } from '../../tests/model/memory-model-cache';
import type { ChatTurn } from '../agent/local-provider';
import { chooseDevice } from './choose-device';
import { configureTransformersEnv } from './configure-transformers-env';
import { createKvPrefixCache } from './create-kv-prefix-cache';
import { generateReply } from './generate-reply';
import { loadTransformersModel } from './load-transformers-model';
import { stripTrailingEos } from './strip-trailing-eos';
import { toTemplateMessages, toTemplateTool } from './to-template-messages';
import {
  type CausalLM,
  encodeChat,
  eosTokenId,
  listModelFiles,
  loadTokenizerFiles,
  type Tokenizer,
  tokenIds,
} from './transformers-runtime';

const models = useScriptedModelHost();
let model: CausalLM;
let tokenizer: Tokenizer;

beforeAll(async () => {
  const spec = models.spec();
  const choice = await chooseDevice({ cpuDevice: 'cpu' }, spec);
  configureTransformersEnv(choice, {
    remoteHost: models.host.url,
    fetch: (input, init) => fetch(input, init),
    cache: createMemoryModelCache(),
  });
  await loadTransformersModel({
    spec,
    revision: 'main',
    choice,
    files: await listModelFiles(spec.id, { revision: 'main', dtype: choice.dtype, device: choice.device, include_processor: false }),
    loadTokenizer: (progress_callback) => loadTokenizerFiles(spec.id, { revision: 'main', progress_callback }),
    retries: 3,
    retryDelayMs: 5,
    onProgress: () => {},
    onLoaded: (loaded) => {
      model = loaded.model;
      tokenizer = loaded.tokenizer;
    },
  });
});

const prompt = (messages: ChatTurn[]) =>
  encodeChat(tokenizer, toTemplateMessages(messages), { tools: tools.map(toTemplateTool), add_generation_prompt: true, return_dict: true });
const text = (generated: bigint[]) => tokenizer.decode(stripTrailingEos(generated, eosTokenId(model)), { skip_special_tokens: false });
const reply = (messages: ChatTurn[], more: Partial<Parameters<typeof generateReply>[0]> = {}) =>
  generateReply({
    model,
    tokenizer,
    prompt: prompt(messages),
    kv: createKvPrefixCache(),
    maxNewTokens: 512,
    signal: new AbortController().signal,
    started: performance.now(),
    ...more,
  });

describe('generateReply', () => {
  it('stops right after the tool-call end marker when given one, and at the end of sequence otherwise', async () => {
    const marked = await reply([system, user('be chatty')], { stopAfter: '</tool_call>' });
    expect(text(marked.generated)).toBe(CALL);
    const unmarked = await reply([system, user('be chatty')]);
    expect(text(unmarked.generated)).toBe(`${CALL} and then some words after the call.`);
  });

  it('streams the reply’s text to a listener and counts what it did', async () => {
    let streamed = '';
    const { generated, stats } = await reply([system, user('find socks')], { onText: (delta) => (streamed += delta) });
    expect(streamed.startsWith(CALL)).toBe(true);
    expect(stats.newTokens).toBe(generated.length);
    expect(stats.reusedTokens).toBe(0);
    expect(stats.promptTokens).toBeGreaterThan(0);
    expect(stats.totalMs).toBeGreaterThanOrEqual(stats.firstTokenMs);
    expect(stats.kvBytes).toBeGreaterThan(0);
  });

  it('keeps its cache for the next generation, which starts from it when its prompt extends it', async () => {
    const kv = createKvPrefixCache();
    const first = await reply([system, user('find socks')], { kv, stopAfter: '</tool_call>' });
    const second = await reply([system, user('find socks'), ...afterCall], { kv, stopAfter: '</tool_call>' });
    expect(text(second.generated)).toBe('Found 3 pairs of socks.');
    expect(second.stats.reusedTokens).toBe(first.stats.promptTokens + first.stats.newTokens - 1);
  });

  it('stops within a token of an abort without throwing, handing back what came so far and keeping its cache', async () => {
    const stop = new AbortController();
    const kv = createKvPrefixCache();
    const rambling = [system, user('please ramble')];
    const { generated, stats } = await reply(rambling, { kv, maxNewTokens: 4000, signal: stop.signal, onText: () => stop.abort() });
    expect(stop.signal.aborted).toBe(true);
    expect(generated.length).toBeGreaterThan(0);
    expect(generated.length).toBeLessThan(20);
    expect(stats.newTokens).toBe(generated.length);
    // The cache covers the prompt and every generated token but the last, which was never fed.
    const next = await kv.take([...tokenIds(prompt(rambling).input_ids), ...generated]);
    expect(next.reusedTokens).toBe(stats.promptTokens + stats.newTokens - 1);
    await next.past?.dispose();
  });
});
