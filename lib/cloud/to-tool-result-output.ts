import type { ToolResultPart } from 'ai';
import type { ToolOutput } from '../agent/types';
import { createSpotlight, type Spotlight, type SpotlightSource } from '../page-data/spotlight';
import { safeJson } from '../shared/safe-json';

/**
 * A page tool's MCP result as the AI SDK sends it to the model, as page data in the run's delimiter
 * (spotlighting, lib/page-data/spotlight.ts): text blocks joined as text; images (where the provider accepts them
 * in tool results) as files between the opening and closing tag; resources as their text or URI; a result with
 * only structuredContent as its JSON. Text loses hidden characters and cannot close the delimiter.
 */
export function toToolResultOutput(
  output: ToolOutput,
  spotlight: Spotlight = createSpotlight(),
  source: SpotlightSource = { tool: 'tool' },
): ToolResultPart['output'] {
  const content = Array.isArray(output?.content) ? output.content : [];
  const hasImage = content.some((block) => block?.type === 'image');
  if (!hasImage) {
    const text = content
      .map(blockText)
      .filter((t) => t !== '')
      .join('\n');
    if (text !== '') return { type: 'text', value: spotlight.wrap(text, source) };
    // What JSON cannot hold (a function, a symbol) is still named to the model, by its String().
    if (output?.structuredContent !== undefined)
      return { type: 'text', value: spotlight.wrap(safeJson(output.structuredContent) || String(output.structuredContent), source) };
    return { type: 'text', value: spotlight.wrap('The tool returned no content.', source) };
  }
  return {
    type: 'content',
    value: [
      { type: 'text' as const, text: spotlight.open(source) },
      ...content.map((block) =>
        block.type === 'image'
          ? { type: 'file' as const, mediaType: block.mimeType, data: { type: 'data' as const, data: block.data } }
          : { type: 'text' as const, text: spotlight.body(blockText(block)) },
      ),
      { type: 'text' as const, text: spotlight.close() },
    ],
  };
}

function blockText(block: ToolOutput['content'][number]): string {
  if (!block || typeof block !== 'object') return '';
  if (block.type === 'text') return typeof block.text === 'string' ? block.text : '';
  if (block.type === 'resource') return block.resource?.text ?? block.resource?.uri ?? '';
  if (block.type === 'image') return `[image ${block.mimeType}]`;
  return '';
}
