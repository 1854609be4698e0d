import type { AgentPart } from '../agent/types';
import { maskSecretPaths } from './mask-secret-paths';
import { redactSecrets } from './redact-secrets';

type ToolPart = Extract<AgentPart, { type: 'tool' }>;

/**
 * A tool call as the chat may show it (docs/security.md § 6): the input's values at the call's own `secretPaths` (the
 * schema it was made under) masked at any depth, and those values redacted from its output and error too, since a
 * page often echoes what it was sent. The conversation itself keeps the clear values: the model and the evals need
 * them. The part is not changed; one without secret paths comes back as it is.
 */
export function maskToolPart(part: ToolPart): ToolPart {
  const paths = part.secretPaths ?? [];
  if (paths.length === 0) return part;
  const { masked, values } = maskSecretPaths(part.input, paths);
  const hide = <T>(value: T): T => redactSecrets(value, { values });
  return {
    ...part,
    input: hide(masked),
    ...(part.output !== undefined ? { output: hide(part.output) } : {}),
    ...(part.error !== undefined ? { error: hide(part.error) } : {}),
  };
}
