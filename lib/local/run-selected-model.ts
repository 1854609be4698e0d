import type { LocalProvider } from '../agent/local-provider';
import { type LocalLoopOptions, runLocalAgent } from '../local-agent/run-local-agent';
import type { AgentRunRequest, AgentStreamPart } from '../agent/types';
import { errorMessage } from '../shared/error-message';
import type { LocalAdapterState } from './local-adapter-state';
import { providerOf, specOf } from './local-adapter-state';
import { loadLocalModel } from './load-local-model';
import type { LocalModelSpec } from './model-catalog';
import { PROMPT_API_CHOICE } from './recommend-model';

/**
 * The adapter's run: runLocalAgent over the selected model, holding the engine for the whole reply. It never
 * downloads (only the person's click does): a catalog model must be cached, and is loaded here if it is not in
 * memory; Chrome's model must be ready. Each refusal is one error part the panel shows, and a Stop during the load
 * ends the run as aborted.
 * @param loop The loop's limits and the site's instructions, as the adapter was given them.
 */
export async function* runSelectedModel(
  state: LocalAdapterState,
  req: AgentRunRequest,
  loop: Pick<LocalLoopOptions, 'maxSteps' | 'stepTimeoutMs' | 'instructions'>,
): AsyncIterable<AgentStreamPart> {
  if (state.busy) {
    yield { type: 'error', error: 'The on-device model is busy: wait for the download or the reply to finish.' };
    return;
  }
  state.busy = 'run';
  try {
    let provider: LocalProvider;
    if (state.selected === PROMPT_API_CHOICE && state.promptApi) {
      const s = await state.promptApi.status();
      if (s.state !== 'ready') {
        yield { type: 'error', error: s.state === 'unavailable' ? s.reason : 'Download Chrome’s built-in model first.' };
        return;
      }
      provider = state.promptApi;
    } else {
      const spec = specOf(state, state.selected) as LocalModelSpec;
      const p = providerOf(state, spec);
      if (!p.loaded) {
        if (!(state.cached.get(spec.id) ?? (await p.isCached().catch(() => false)))) {
          yield { type: 'error', error: 'Download the on-device model first.' };
          return;
        }
        try {
          await loadLocalModel(state, spec, req.signal);
        } catch (error) {
          if (req.signal.aborted) yield { type: 'finish', reason: 'aborted' };
          else yield { type: 'error', error: `The on-device model failed to load: ${errorMessage(error)}` };
          return;
        }
      }
      provider = p;
    }
    yield* runLocalAgent(provider, req, {
      maxSteps: loop.maxSteps,
      stepTimeoutMs: loop.stepTimeoutMs,
      instructions: loop.instructions,
      toolsInline: provider.toolsInline,
    });
  } finally {
    state.busy = undefined;
  }
}
