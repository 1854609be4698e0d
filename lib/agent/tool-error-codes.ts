/**
 * The codes a failed tool call carries, as `Error [code]: message`, and what each means to the model. The page
 * bridge writes them; the system prompt explains them with these same lines, so the two never drift apart.
 */
export const TOOL_ERROR_CODES = {
  unknown_tool: 'No tool has that name on this page right now. Use one from your tool list.',
  invalid_input: 'The arguments did not fit the tool’s parameters. Fix them as the message says and call again.',
  tool_threw: 'The tool ran and failed; the message says why. Do not repeat the same call unchanged.',
  timeout: 'The tool did not answer in time. It may or may not have acted: check before repeating it.',
  cancelled: 'The person stopped or declined this call. Do not call it again unless they ask.',
  navigated: 'The call opened another page. The tools may have changed; continue with the ones you have now.',
  frame_gone: 'The part of the page that had this tool closed or reloaded. The tool may be gone.',
  awaiting_confirmation: 'The form is filled in and waits for the person to submit it on the page. Tell them; do not call it again.',
  too_large: 'The result was too large and was cut. Ask for less, for example with a filter or a smaller page.',
  too_many_calls: 'Too many calls wait in this tab; nothing ran. Wait for them first.',
  sub_agent_failed: 'The sub-agent could not finish; the message says why. Do the rest yourself or tell the person.',
  tool_changed: 'The page changed after the person approved this call (another page, tool or arguments); nothing ran. Ask them again.',
} as const;

/**
 * Appended to the error of a call that is not read-only and ended without the page saying how (timeout, frame
 * gone, navigated, threw): the model reads it, and the panel shows the call as "outcome unknown"
 * (lib/host/create-run-guard.ts).
 */
export const OUTCOME_UNKNOWN_NOTE = 'Outcome unknown: it may have happened. Check the page before trying again.';

/** One tool error code. */
export type ToolErrorCode = keyof typeof TOOL_ERROR_CODES;

/** Whether `code` is one of {@link TOOL_ERROR_CODES}. */
export function isToolErrorCode(code: string): code is ToolErrorCode {
  return Object.hasOwn(TOOL_ERROR_CODES, code);
}

/** The text of a failed call: `Error [code]: message`. */
export function formatToolError(code: ToolErrorCode, message: string): string {
  return `Error [${code}]: ${message}`;
}

/**
 * Reads `Error [code]: message` (or a plain `Error: message`) back. Returns undefined for text that is not an
 * error in this shape. `code` is kept even when it is not one of ours (a newer bridge may add codes).
 */
export function parseToolError(text: string): { code?: string; message: string } | undefined {
  const match = /^\s*Error(?:\s*\[([a-z_]+)\])?\s*:\s*([\s\S]*)$/.exec(text);
  if (!match) return undefined;
  return match[1] ? { code: match[1], message: match[2].trim() } : { message: match[2].trim() };
}
