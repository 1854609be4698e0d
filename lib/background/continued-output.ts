/**
 * What the model reads of a call that navigated its page after its tool asked for a continuation token
 * (create-continuations.ts): the result the next page gave, or why none came.
 */
import type { ToolOutput } from '../agent/types';
import { capToolOutput } from '../agent/cap-tool-output';
import { toolErrorOutput } from '../agent/tool-error-output';

/**
 * The result the next page's `resumeTool` callback gave, capped as any result (the frame that sent it is not
 * trusted to have), with a closing note on where the call finished: the page's address without its fragment, where
 * pages carry the spent token (the model and the panel have no use for it).
 */
export function continuedOutput(output: ToolOutput, url: string, name: string, maxChars: number): ToolOutput {
  const capped = Array.isArray(output?.content)
    ? capToolOutput(output, maxChars)
    : toolErrorOutput('tool_threw', 'The next page sent something that is not a tool result.');
  const page = url.split('#')[0];
  return { ...capped, content: [...capped.content, { type: 'text', text: `("${name}" navigated the page and finished on ${page}.)` }] };
}

/**
 * A call whose tool asked to finish on the next page, which did not within `timeoutMs`: said so, followed by what
 * the navigation showed of the new page (follow-navigation.ts).
 */
export function unfinishedOutput(name: string, timeoutMs: number, navigated: ToolOutput): ToolOutput {
  const first = navigated.content[0];
  const about = first?.type === 'text' ? first.text.replace(/^Error \[navigated\]: /, '') : '';
  const text = `"${name}" asked to finish on the next page and did not within ${timeoutMs / 1000} s.${about ? ` ${about}` : ''}`;
  return toolErrorOutput('timeout', text);
}
