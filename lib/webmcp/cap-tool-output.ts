/**
 * Keeps a tool result within a size the model can take: text past the cap is cut, with a note saying so, and a
 * large structuredContent is dropped (its text form is what was cut). Images count by their base64 length.
 * When nothing fits at all (one image over the cap), the result is `Error [too_large]`.
 */
import type { ToolContent, ToolOutput } from '../agent/types';
import { toolErrorOutput } from './tool-error-output';

/** The default cap on a result's characters (text plus image data). */
export const DEFAULT_MAX_RESULT_CHARS = 20_000;

/** Returns the output unchanged when it fits, else a cut copy with a closing note. */
export function capToolOutput(output: ToolOutput, maxChars = DEFAULT_MAX_RESULT_CHARS): ToolOutput {
  const total = output.content.reduce((sum, block) => sum + sizeOf(block), 0);
  if (total <= maxChars) return output;
  let budget = maxChars;
  const content: ToolContent[] = [];
  for (const block of output.content) {
    if (budget <= 0) break;
    if (block.type === 'text') {
      content.push({ type: 'text', text: block.text.slice(0, budget) });
      budget -= Math.min(block.text.length, budget);
    } else if (sizeOf(block) <= budget) {
      content.push(block);
      budget -= sizeOf(block);
    }
  }
  if (content.length === 0) {
    return toolErrorOutput('too_large', `The tool returned ${total} characters of content that cannot be cut to the ${maxChars}-character limit.`);
  }
  content.push({
    type: 'text',
    text: `[Output cut: the tool returned ${total} characters; only the first ${maxChars} are shown.]`,
  });
  return { content, ...(output.isError ? { isError: true } : {}) };
}

function sizeOf(block: ToolContent): number {
  if (block.type === 'text') return block.text.length;
  if (block.type === 'image') return block.data.length;
  return (block.resource.text?.length ?? 0) + block.resource.uri.length;
}
