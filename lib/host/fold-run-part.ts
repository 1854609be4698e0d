import { type AgentRunState, reduceRunState } from '../agent/reduce-stream-part';
import type { AgentStreamPart } from '../agent/types';
import { recordSecretPaths } from '../transcript/record-secret-paths';
import type { SecretPath } from '../transcript/secret-paths-of';

/**
 * Folds one stream part of a run into the run's state (reduceRunState), keeping the secret paths of the call the
 * part starts or ends with that call: they go into storage with it, so exports mask it after its tool has left the
 * page.
 *
 * @param state The run so far.
 * @param part The adapter's next part (a sub-agent's comes wrapped, however deep).
 * @param secretPathsFor A call's secret paths (the schema it ran under).
 * @returns The new state, and `settled`: the id of the call this part ended (its live state is over), if it ended one.
 */
export function foldRunPart(
  state: AgentRunState,
  part: AgentStreamPart,
  secretPathsFor: (call: { id: string; name: string }) => readonly SecretPath[],
): { state: AgentRunState; settled?: string } {
  const reduced = reduceRunState(state, part);
  const folded = { ...reduced, messages: recordSecretPaths(reduced.messages, part, secretPathsFor) };
  const inner = innermostPart(part);
  return inner.type === 'tool-result' || inner.type === 'tool-error' ? { state: folded, settled: inner.id } : { state: folded };
}

/** The part a sub-agent's nested part wraps (however deep), or the part itself. */
function innermostPart(part: AgentStreamPart): AgentStreamPart {
  return part.type === 'agent-part' ? innermostPart(part.part) : part;
}
