import { type AgentRunState, initialRunState } from '../agent/reduce-stream-part';
import type { AgentAdapter, AgentMessage, AgentRunRequest, AgentStreamPart, PageContext, ToolDescriptor, WebAgent } from '../agent/types';
import { errorMessage } from '../shared/error-message';
import type { SecretPath } from '../transcript/secret-paths-of';
import { foldRunPart } from './fold-run-part';
import { readAdapterRun } from './read-adapter-run';

interface RunAdapterInputs {
  /** The conversation the run starts from (ending with the person's message, or where Retry picks up). */
  conversation: AgentMessage[];
  /** The adapter chosen now, or why there is none. */
  adapter: () => Promise<AgentAdapter | { unavailable: string }>;
  /** The run's Stop. */
  signal: AbortSignal;
  /** How long an adapter may take to wind down after Stop before its parts are no longer read. */
  graceMs: number;
  /** The tools the model is offered now: the request's `tools` getter reads it before every model step. */
  tools: () => ToolDescriptor[];
  /** Runs an agent's call on the tab (call-page-tool.ts). */
  callTool: AgentRunRequest['callTool'];
  /** The site's agent the run was given. */
  agent: WebAgent | undefined;
  /** The tab's page, read when the adapter starts. */
  page: () => PageContext | undefined;
  /** The site the run belongs to (AgentRunRequest.site). */
  site?: string;
  /** A call's secret paths (fold-run-part.ts). */
  secretPathsFor: (call: { id: string; name: string }) => readonly SecretPath[];
  /** Called after every part is folded: the run's state now, and the call the part ended, if it ended one. */
  onPart: (state: AgentRunState, settled: string | undefined) => void;
}

/**
 * Runs the chosen adapter over a conversation and folds all it says into the run's state, until the run has ended:
 * an adapter that is unavailable or throws ends it with an error, and one that stops talking without saying how is
 * taken as finished (or stopped, when Stop was pressed). Stop ends it even when the adapter ignores its signal
 * (read-adapter-run.ts).
 *
 * @returns The run's state once it has ended (`status` is never 'running').
 */
export async function runAdapter(inputs: RunAdapterInputs): Promise<AgentRunState> {
  let state = initialRunState(inputs.conversation);
  const fold = (part: AgentStreamPart) => {
    const folded = foldRunPart(state, part, inputs.secretPathsFor);
    state = folded.state;
    inputs.onPart(state, folded.settled);
  };
  try {
    const adapter = await inputs.adapter();
    if ('unavailable' in adapter) {
      fold({ type: 'error', error: adapter.unavailable });
    } else {
      const page = inputs.page();
      const request: AgentRunRequest = {
        messages: inputs.conversation,
        get tools() {
          return inputs.tools();
        },
        signal: inputs.signal,
        callTool: inputs.callTool,
        ...(inputs.agent ? { agent: inputs.agent } : {}),
        ...(page ? { page } : {}),
        ...(inputs.site ? { site: inputs.site } : {}),
      };
      await readAdapterRun(adapter.run(request), {
        signal: inputs.signal,
        graceMs: inputs.graceMs,
        onPart: (part) => {
          fold(part);
          return state.status === 'running';
        },
      });
    }
  } catch (error) {
    if (state.status === 'running') fold({ type: 'error', error: `The agent failed: ${errorMessage(error)}` });
  }
  // An adapter that ends without saying how is treated as finished (or stopped, if Stop was pressed).
  if (state.status === 'running') fold({ type: 'finish', reason: inputs.signal.aborted ? 'aborted' : 'stop' });
  return state;
}
