/**
 * Turns whatever a page tool returned into a ToolOutput (an MCP CallToolResult).
 *
 * WebMCP results are free-form: native executeTool hands back a string (JSON for objects, the plain text for a
 * string result, "undefined" for nothing), a polyfill may hand back the raw value. Accepted here: an MCP result
 * ({content, isError}, as an object or as its JSON text), any JSON value (kept as structuredContent when it is an
 * object or array, and as text), or a plain string. Everything else is described as text; nothing throws.
 */
import type { ToolContent, ToolOutput } from '../agent/types';
import { thrownMessage } from '../page-data/describe-thrown';

/** Normalises one raw result. */
export function normalizeToolResult(raw: unknown): ToolOutput {
  try {
    return normalize(raw);
  } catch {
    // A value whose every read throws (a hostile Proxy) is still a result: described, never thrown.
    return { content: [{ type: 'text', text: thrownMessage(raw) }] };
  }
}

function normalize(raw: unknown): ToolOutput {
  if (typeof raw === 'string') {
    const parsed = parseJson(raw);
    if (parsed.ok && isMcpResult(parsed.value)) return fromMcpResult(parsed.value);
    if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null) {
      return { content: [{ type: 'text', text: raw }], structuredContent: parsed.value };
    }
    return { content: [{ type: 'text', text: raw }] };
  }
  if (isMcpResult(raw)) return fromMcpResult(raw);
  if (raw === undefined) return { content: [{ type: 'text', text: 'undefined' }] };
  if (typeof raw === 'object' && raw !== null) {
    const text = safeStringify(raw);
    if (text !== undefined) return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) };
  }
  return { content: [{ type: 'text', text: describeValue(raw) }] };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch {
    return { ok: false };
  }
}

function isMcpResult(value: unknown): value is { content: unknown[]; isError?: unknown; structuredContent?: unknown } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}

function fromMcpResult(value: { content: unknown[]; isError?: unknown; structuredContent?: unknown }): ToolOutput {
  const content = value.content.map(toContent);
  const output: ToolOutput = { content: content.length > 0 ? content : [{ type: 'text', text: '' }] };
  if (value.isError === true) output.isError = true;
  if (value.structuredContent !== undefined) {
    const copy = safeStringify(value.structuredContent);
    if (copy !== undefined) output.structuredContent = JSON.parse(copy);
  }
  return output;
}

function toContent(block: unknown): ToolContent {
  if (typeof block === 'object' && block !== null) {
    const b = block as Record<string, unknown>;
    if (b.type === 'text' && typeof b.text === 'string') return { type: 'text', text: b.text };
    if (b.type === 'image' && typeof b.data === 'string' && typeof b.mimeType === 'string') {
      return { type: 'image', data: b.data, mimeType: b.mimeType };
    }
    if (b.type === 'resource' && typeof b.resource === 'object' && b.resource !== null) {
      const r = b.resource as Record<string, unknown>;
      if (typeof r.uri === 'string') {
        return {
          type: 'resource',
          resource: {
            uri: r.uri,
            ...(typeof r.text === 'string' ? { text: r.text } : {}),
            ...(typeof r.mimeType === 'string' ? { mimeType: r.mimeType } : {}),
          },
        };
      }
    }
  }
  // An unknown block type still reaches the model, as its JSON.
  return { type: 'text', text: typeof block === 'string' ? block : (safeStringify(block) ?? describeValue(block)) };
}

function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? undefined;
  } catch {
    return undefined;
  }
}

function describeValue(value: unknown): string {
  try {
    return String(value);
  } catch {
    // Object.prototype.toString can throw too (a Proxy's Symbol.toStringTag trap): describeThrown never does.
    return thrownMessage(value);
  }
}
