import type { ToolResultPart } from 'ai';
import type { ToolOutput } from '../agent/types';

/**
 * A page tool's MCP result as the AI SDK sends it to the model: text blocks joined as text; images (where the
 * provider accepts them in tool results) as files; resources as their text or URI; a result with only
 * structuredContent as its JSON.
 */
export function toToolResultOutput(output: ToolOutput): ToolResultPart['output'] {
  const content = Array.isArray(output?.content) ? output.content : [];
  const hasImage = content.some((block) => block?.type === 'image');
  if (!hasImage) {
    const text = content.map(blockText).filter((t) => t !== '').join('\n');
    if (text !== '') return { type: 'text', value: text };
    if (output?.structuredContent !== undefined) return { type: 'text', value: safeJson(output.structuredContent) };
    return { type: 'text', value: 'The tool returned no content.' };
  }
  return {
    type: 'content',
    value: content.map((block) =>
      block.type === 'image'
        ? { type: 'file' as const, mediaType: block.mimeType, data: { type: 'data' as const, data: block.data } }
        : { type: 'text' as const, text: blockText(block) },
    ),
  };
}

function blockText(block: ToolOutput['content'][number]): string {
  if (!block || typeof block !== 'object') return '';
  if (block.type === 'text') return typeof block.text === 'string' ? block.text : '';
  if (block.type === 'resource') return block.resource?.text ?? block.resource?.uri ?? '';
  if (block.type === 'image') return `[image ${block.mimeType}]`;
  return '';
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
