/**
 * A failed tool call as the model sees it: an MCP error result whose text is `Error [code]: message`.
 * The codes are the fixed set in lib/agent/tool-error-codes.ts (documented in ERROR-CODES.md).
 */
import type { ToolOutput } from '../agent/types';

/** The bridge's tool error codes. */
export type ToolErrorCode =
  | 'unknown_tool'
  | 'invalid_input'
  | 'tool_threw'
  | 'timeout'
  | 'cancelled'
  | 'navigated'
  | 'frame_gone'
  | 'awaiting_confirmation'
  | 'too_large';

/** Builds `{content: [{type: 'text', text: 'Error [code]: message'}], isError: true}`. */
export function toolErrorOutput(code: ToolErrorCode, message: string): ToolOutput {
  return { content: [{ type: 'text', text: `Error [${code}]: ${message}` }], isError: true };
}

/** The code of an `Error [code]: …` output, if it is one. */
export function toolErrorCodeOf(output: ToolOutput): string | undefined {
  const first = output.content[0];
  if (!output.isError || first?.type !== 'text') return undefined;
  return /^Error \[([a-z_]+)\]:/.exec(first.text)?.[1];
}
