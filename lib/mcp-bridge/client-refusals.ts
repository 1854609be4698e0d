/**
 * What a desktop agent hears when its call reaches nothing it may see (docs/security.md § 7): the same words whatever
 * the reason, so that a refusal names no site, tab or tool that is not shared with it.
 */
import { formatToolError } from '../agent/tool-error-codes';
import type { ToolOutput } from '../agent/types';

/**
 * The one answer to a call that reaches no shared tool, whatever the reason (never shared, the tab closed or left
 * its site, the site no longer shared, the tool changed): a client learns only that no such tool is shared with it.
 */
export const NOT_SHARED_ERROR = formatToolError(
  'unknown_tool',
  'No tool of that name is shared with you now. Nothing was run. List the tools to see what is shared.',
);

/**
 * Said when a call ran but its tab no longer shows a site shared with the client once it ended (the tool took the
 * tab elsewhere): what it returned is about a page the client may not see, so it stays in the browser.
 */
export const LEFT_SHARED_SITE_ERROR = formatToolError(
  'navigated',
  'The call ran, and its tab no longer shows a page shared with you, so what it returned stays in the browser. List the tools again.',
);

/** A tool error output with this text, as a client gets it. */
export function refusalOutput(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}
