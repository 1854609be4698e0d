import type { ToolAnnotations } from './types';

/**
 * Whether a page marks a tool `debugging: true`: in the spec's words, "intended for debugging and developer tooling
 * rather than end-user interactions" (webmachinelearning/webmcp, `ToolAnnotations`). Such a tool is the page's
 * developers' (docs/security.md, "Debugging tools"): no model is offered it, not the in-browser agent, its
 * sub-agents nor a desktop agent, and a call of it by name from any of them is refused where the call is run;
 * the person runs it by hand in the Develop view. Only `true` counts: whatever else a page (or a compromised
 * frame) puts there leaves the tool an ordinary one, which the confirmation policy still judges.
 */
export function isDebuggingTool(tool: { annotations?: ToolAnnotations } | undefined): boolean {
  return tool?.annotations?.debugging === true;
}
