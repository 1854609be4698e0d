import { describe, expect, it } from 'vitest';
import type { AgentRunRequest, AgentStreamPart } from '../agent/types';
import { stubEngines } from '../testing/stub-transformers-provider';
import { createPromptApiProvider, NO_PROMPT_API } from './create-prompt-api-provider';
import { createLocalAdapterState } from './local-adapter-state';
import { recommendedModel } from './model-catalog';
import { PROMPT_API_CHOICE } from './recommend-model';
import { runSelectedModel } from './run-selected-model';

const spec = recommendedModel();

function request(signal = new AbortController().signal): AgentRunRequest {
  return {
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
    tools: [],
    signal,
    callTool: async () => ({ content: [] }),
  };
}

async function collect(parts: AsyncIterable<AgentStreamPart>): Promise<AgentStreamPart[]> {
  const out: AgentStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

describe('runSelectedModel', () => {
  it('loads a cached model and runs the real loop over it, holding the engine until the reply ends', async () => {
    const engines = stubEngines(() => ({ cached: true, replies: ['Hello there.'] }));
    const state = createLocalAdapterState(engines);
    const run = runSelectedModel(state, request(), {})[Symbol.asyncIterator]();
    const first = await run.next();
    expect(first.value).toMatchObject({ type: 'message-start' });
    expect(state.busy).toBe('run');
    const rest: AgentStreamPart[] = [];
    for (let r = await run.next(); !r.done; r = await run.next()) rest.push(r.value);
    expect(rest.find((p) => p.type === 'text-delta')).toMatchObject({ delta: 'Hello there.' });
    expect(rest.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(state.busy).toBeUndefined();
    expect(engines.made.get(spec.id)?.calls.prepare).toBe(1);
    expect(state.status).toEqual({ state: 'ready' });
  });

  it('never downloads: a model not on this device is one error part', async () => {
    const engines = stubEngines();
    const state = createLocalAdapterState(engines);
    expect(await collect(runSelectedModel(state, request(), {}))).toEqual([
      { type: 'error', error: 'Download the on-device model first.' },
    ]);
    expect(engines.made.get(spec.id)?.calls.prepare).toBe(0);
    expect(state.busy).toBeUndefined();
  });

  it('refuses while the engine is held, without freeing it', async () => {
    const state = createLocalAdapterState(stubEngines(() => ({ cached: true })));
    state.busy = 'prepare';
    expect(await collect(runSelectedModel(state, request(), {}))).toEqual([
      { type: 'error', error: 'The on-device model is busy: wait for the download or the reply to finish.' },
    ]);
    expect(state.busy).toBe('prepare');
  });

  it('says the load failed, or ends as aborted when Stop came during the load', async () => {
    const failing = createLocalAdapterState(stubEngines(() => ({ cached: true, prepareError: new Error('bad weights') })));
    expect(await collect(runSelectedModel(failing, request(), {}))).toEqual([
      { type: 'error', error: 'The on-device model failed to load: bad weights' },
    ]);
    const controller = new AbortController();
    controller.abort();
    const stopped = createLocalAdapterState(stubEngines(() => ({ cached: true })));
    expect(await collect(runSelectedModel(stopped, request(controller.signal), {}))).toEqual([{ type: 'finish', reason: 'aborted' }]);
  });

  it('for Chrome’s model, says why it cannot run, from its own status', async () => {
    const state = createLocalAdapterState({ ...stubEngines(), promptApi: createPromptApiProvider(undefined), modelId: PROMPT_API_CHOICE });
    expect(await collect(runSelectedModel(state, request(), {}))).toEqual([{ type: 'error', error: NO_PROMPT_API }]);
  });
});
