import type { ToolOutput } from './types';
import { safeJson } from '../shared/safe-json';

/**
 * A tool result as the model reads it: the text blocks joined, images and resources named, structured content
 * as JSON when there is no text. A failed result always starts with "Error", so the model and the loop's
 * failure checks see it as one. Tolerates malformed outputs (the page made them).
 */
export function toolOutputText(output: ToolOutput | undefined): string {
  const text = contentText(output);
  if (output?.isError && !/^\s*Error\b/.test(text)) return `Error: ${text || 'the tool failed without a message.'}`;
  return text;
}

function contentText(output: ToolOutput | undefined): string {
  if (!output || typeof output !== 'object') return '';
  const pieces: string[] = [];
  if (Array.isArray(output.content)) {
    for (const block of output.content) {
      if (!block || typeof block !== 'object') continue;
      if (block.type === 'text' && typeof block.text === 'string') pieces.push(block.text);
      else if (block.type === 'image') pieces.push(`[image${typeof block.mimeType === 'string' ? ` ${block.mimeType}` : ''}]`);
      else if (block.type === 'resource' && block.resource) {
        pieces.push(typeof block.resource.text === 'string' ? block.resource.text : `[resource ${String(block.resource.uri)}]`);
      }
    }
  }
  if (pieces.length === 0 && output.structuredContent !== undefined) return safeJson(output.structuredContent);
  return pieces.join('\n');
}
