/**
 * A failed tool call as the model sees it: an MCP error result whose text is `Error [code]: message`, with the
 * codes of lib/agent/tool-error-codes.ts (documented in ERROR-CODES.md).
 */
import type { ToolOutput } from './types';
import { formatToolError, type ToolErrorCode } from './tool-error-codes';

export type { ToolErrorCode };

/** Builds `{content: [{type: 'text', text: 'Error [code]: message'}], isError: true}`. */
export function toolErrorOutput(code: ToolErrorCode, message: string): ToolOutput {
  return { content: [{ type: 'text', text: formatToolError(code, message) }], isError: true };
}

/** A call that was stopped before it reached the page: one wording wherever that is found out. */
export function cancelledBeforeStart(): ToolOutput {
  return toolErrorOutput('cancelled', 'The call was cancelled before it started.');
}

/** A running call that was stopped: the page's signal aborted and it heard toolcancel. */
export function cancelledInPage(name: string): ToolOutput {
  return toolErrorOutput('cancelled', `"${name}" was cancelled; the page was told (toolcancel).`);
}
