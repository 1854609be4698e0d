/**
 * A page tool's output as a desktop agent gets it (an MCP CallToolResult), spotlighted as the extension's own agent
 * gets it (lib/page-data/spotlight.ts): the page's text, cleaned of hidden characters and unable to close the
 * delimiter, inside the client's own `<page-data-…>` tag, which the MCP server's instructions name
 * (bridge/src/mcp-server.ts). Images the page returned go between the opening and closing tag.
 */
import type { ToolOutput } from '../agent/types';
import type { BridgeCallResult, BridgeContent } from '../messaging/mcp-bridge-messages';
import type { Spotlight, SpotlightSource } from '../page-data/spotlight';
import { safeJson } from '../shared/safe-json';

/** Image types a client may be handed; anything else is named, not passed on. */
const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;

/** The page's output, as data in the client's delimiter. */
export function toMcpResult(output: ToolOutput, spotlight: Spotlight, source: SpotlightSource): BridgeCallResult {
  const content = Array.isArray(output?.content) ? output.content : [];
  const images: BridgeContent[] = [];
  const texts: string[] = [];
  for (const block of content) {
    if (!block || typeof block !== 'object') continue;
    if (block.type === 'image' && typeof block.data === 'string' && IMAGE_TYPES.test(String(block.mimeType))) {
      images.push({ type: 'image', data: block.data, mimeType: block.mimeType });
    } else {
      const text = blockText(block);
      if (text !== '') texts.push(text);
    }
  }
  let text = texts.join('\n');
  if (text === '' && output?.structuredContent !== undefined) text = safeJson(output.structuredContent) || String(output.structuredContent);
  const isError = output?.isError === true ? { isError: true } : {};
  if (images.length === 0) {
    return { content: [{ type: 'text', text: spotlight.wrap(text || 'The tool returned no content.', source) }], ...isError };
  }
  return {
    content: [
      { type: 'text', text: spotlight.open(source) },
      ...(text ? [{ type: 'text' as const, text: spotlight.body(text) }] : []),
      ...images,
      { type: 'text', text: spotlight.close() },
    ],
    ...isError,
  };
}

/** The extension's own answer (a refusal, the person's Deny): not page data, so not in the delimiter. */
export function toMcpError(output: ToolOutput): BridgeCallResult {
  const text = (Array.isArray(output?.content) ? output.content : []).map(blockText).filter(Boolean).join('\n');
  return { content: [{ type: 'text', text: text || 'The call did not run.' }], isError: true };
}

function blockText(block: ToolOutput['content'][number]): string {
  if (!block || typeof block !== 'object') return '';
  if (block.type === 'text') return typeof block.text === 'string' ? block.text : '';
  if (block.type === 'resource') return String(block.resource?.text ?? block.resource?.uri ?? '');
  if (block.type === 'image') return `[image ${String(block.mimeType)}]`;
  return '';
}
