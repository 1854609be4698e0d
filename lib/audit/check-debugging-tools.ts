import { isDebuggingTool } from '../agent/is-debugging-tool';
import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor } from './finding-for';

/**
 * A tool marked `debugging: true` (the spec: "intended for debugging and developer tooling rather than end-user
 * interactions"): this extension offers it to no agent, the in-browser one, its sub-agents and desktop agents alike,
 * and refuses a call of it by name from any of them (docs/security.md, "Debugging tools"); the Develop view runs it by
 * hand. Worth knowing on a page people use: the tool ships with the page, and agents cannot use it.
 */
export function checkDebuggingTools(input: AuditInput): AuditFinding[] {
  return input.tools.filter(isDebuggingTool).map((tool) =>
    findingFor(tool, {
      rule: 'annotation/debugging',
      severity: 'info',
      field: 'annotations.debugging',
      message:
        'It is marked debugging: no agent is offered it (nor a desktop agent), and a call of it by name is refused. Only a person runs it, by hand in the Develop view.',
      why: 'A debugging tool is for the page’s developers. Left on a page people use, it does nothing for their agents, and the page’s own scripts (and anyone with the console) can still list and run it with getTools() and executeTool().',
      fix: 'Register it only in development builds; drop debugging: true if agents should use it.',
    }),
  );
}
