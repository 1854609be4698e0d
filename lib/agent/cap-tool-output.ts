/**
 * Keeps a tool result within a size the model can take, counting everything that is sent to the model or stored:
 * every content block (text, image data and MIME type, resource URI, text and MIME type) and `structuredContent`
 * (as its JSON). When the whole does not fit:
 * - a structuredContent that repeats content the model already reads (the usual JSON result: the same JSON as
 *   text and as structure) is dropped, and the content is kept whole if it fits on its own;
 * - a structuredContent that is all there is (`{content: [], structuredContent}`, which the model reads as JSON)
 *   becomes that JSON as text, and is cut like text;
 * - text past the cap is cut, with a note saying so; images that do not fit are left out.
 * When nothing fits at all (one image over the cap), the result is `Error [too_large]`.
 *
 * Applied where a frame runs the call and again in the background router, which does not trust the frame.
 */
import type { ToolContent, ToolOutput } from './types';
import { toolErrorOutput } from './tool-error-output';

/**
 * A result larger than this (characters of its JSON, measured only up to it) is refused whole before it is
 * normalised, cut or sent on: cutting 30 MB to 20,000 characters would first copy the 30 MB from world to world and
 * context to context (docs/security.md, "Limits on what a page can make the extension do").
 */
export const MAX_RAW_RESULT_CHARS = 1_000_000;

/** A result over MAX_RAW_RESULT_CHARS, in the extension's words: the model reads that nothing of it came. */
export function resultRefused(name: string): ToolOutput {
  return toolErrorOutput(
    'too_large',
    `"${name}" returned a result of more than ${MAX_RAW_RESULT_CHARS.toLocaleString('en')} characters; the extension refused it whole, so none of it is shown. Ask the tool for less, for example with a filter or a smaller page.`,
  );
}

/** The default cap on a result's characters (text plus image data). */
export const DEFAULT_MAX_RESULT_CHARS = 20_000;

/**
 * Room for the cap's own closing note: a result the frame already cut (the cap plus its note) must pass a second
 * cap with the same limit unchanged.
 */
export const CAP_NOTE_ROOM = 200;

/** Returns the output unchanged when it fits, else a cut copy with a closing note. */
export function capToolOutput(output: ToolOutput, maxChars = DEFAULT_MAX_RESULT_CHARS): ToolOutput {
  const blocks: unknown[] = Array.isArray(output?.content) ? output.content : [];
  const valid = blocks.filter(isToolContent);
  const malformed = valid.length !== blocks.length;
  const structured = output?.structuredContent === undefined ? undefined : jsonOf(output.structuredContent);
  const total = blocks.reduce<number>((sum, block) => sum + sizeOf(block), 0) + (structured?.length ?? 0);
  if (total <= maxChars && !malformed) return output;
  const errorFlag = output?.isError === true ? { isError: true as const } : {};
  const validSize = valid.reduce((sum, block) => sum + sizeOf(block), 0);
  // A frame may send blocks that are not MCP content: they are left out, and the rest is judged on its own.
  if (validSize + (structured?.length ?? 0) <= maxChars) {
    return {
      content: valid.length > 0 ? valid : [{ type: 'text', text: '' }],
      ...(structured === undefined ? {} : { structuredContent: JSON.parse(structured) }),
      ...errorFlag,
    };
  }
  const shown = valid.filter(isVisible);
  if (shown.length > 0 && validSize <= maxChars) return { content: valid, ...errorFlag };
  // The model reads structuredContent only when there is no content to read: then it is the text to cut.
  const source: ToolContent[] = shown.length > 0 || structured === undefined ? shown : [{ type: 'text', text: structured }];
  let budget = maxChars;
  const content: ToolContent[] = [];
  for (const block of source) {
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
    return toolErrorOutput(
      'too_large',
      `The tool returned ${total} characters of content that cannot be cut to the ${maxChars}-character limit.`,
    );
  }
  content.push({
    type: 'text',
    text: `[Output cut: the tool returned ${total} characters; only the first ${maxChars} are shown.]`,
  });
  return { content, ...errorFlag };
}

/** Characters a block adds to what is sent and stored. A malformed block (a frame may send anything) counts as its JSON. */
function sizeOf(block: unknown): number {
  if (!isToolContent(block)) return jsonOf(block)?.length ?? 0;
  if (block.type === 'text') return block.text.length;
  if (block.type === 'image') return block.data.length + block.mimeType.length;
  return (block.resource.text?.length ?? 0) + block.resource.uri.length + (block.resource.mimeType?.length ?? 0);
}

/** Whether the model reads something from this block (an empty text block adds nothing). */
function isVisible(block: ToolContent): boolean {
  return block.type !== 'text' || block.text !== '';
}

/** A well-formed MCP content block, as normalizeToolResult makes them. */
function isToolContent(block: unknown): block is ToolContent {
  if (typeof block !== 'object' || block === null) return false;
  const b = block as Record<string, unknown>;
  if (b.type === 'text') return typeof b.text === 'string';
  if (b.type === 'image') return typeof b.data === 'string' && typeof b.mimeType === 'string';
  if (b.type === 'resource') {
    const r = b.resource as Record<string, unknown> | null | undefined;
    return (
      typeof r === 'object' &&
      r !== null &&
      typeof r.uri === 'string' &&
      (r.text === undefined || typeof r.text === 'string') &&
      (r.mimeType === undefined || typeof r.mimeType === 'string')
    );
  }
  return false;
}

function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? undefined;
  } catch {
    return undefined;
  }
}
