import type { ToolDescriptor } from '../agent/types';
import { cleanPageText } from '../page-data/clean-page-text';
import { resolveLocalRef } from '../schema/resolve-pointer';
import { isRecord } from '../shared/is-record';

/** One thing the on-device agent's compaction (rankTools, compactSchema) took out of a tool. */
export type CompactionCut =
  | { kind: 'description'; path: string; from: number; to: number }
  | { kind: 'enum'; path: string; from: number; to: number }
  | { kind: 'alternatives'; path: string; from: number; to: number }
  | { kind: 'dropped'; path: string; keywords: string[] }
  | { kind: 'too-deep'; path: string };

/** Keywords that are not lost when missing from the compact copy: references are inlined in place. */
const INLINED = new Set(['$ref', '$defs', 'definitions']);

/**
 * What the on-device prompt leaves out of a tool, comparing the page's tool with the compact copy the local loop
 * shows the model (rankTools): descriptions cut, enums cut, anyOf/oneOf alternatives cut, keywords dropped (titles,
 * examples, additionalProperties…, and patterns, defaults or consts too long to keep), and parts nested too deep
 * to be shown at all.
 */
export function describeCompaction(original: ToolDescriptor, compact: ToolDescriptor): CompactionCut[] {
  const cuts: CompactionCut[] = [];
  const from = oneLine(original.description).length;
  const to = compact.description.length;
  if (to < from) cuts.push({ kind: 'description', path: 'description', from, to });
  const root = original.inputSchema;

  const visit = (node: unknown, copy: unknown, path: string, refs: number) => {
    let source = node;
    while (isRecord(source) && typeof source.$ref === 'string' && source.$ref.startsWith('#') && refs < 8) {
      const target = resolveLocalRef(root, source.$ref);
      const { $ref: _ref, ...siblings } = source;
      source = isRecord(target) ? { ...target, ...siblings } : siblings;
      refs++;
    }
    if (!isRecord(source)) return;
    if (!isRecord(copy) || (Object.keys(copy).length === 0 && Object.keys(source).some((key) => !INLINED.has(key)))) {
      cuts.push({ kind: 'too-deep', path });
      return;
    }
    const dropped = Object.keys(source).filter((key) => !INLINED.has(key) && !(key in copy));
    if (dropped.length) cuts.push({ kind: 'dropped', path, keywords: dropped });
    if (typeof source.description === 'string' && typeof copy.description === 'string') {
      const full = oneLine(source.description).length;
      if (copy.description.length < full)
        cuts.push({ kind: 'description', path: `${path}.description`, from: full, to: copy.description.length });
    }
    if (Array.isArray(source.enum) && Array.isArray(copy.enum) && copy.enum.length < source.enum.length) {
      cuts.push({ kind: 'enum', path: `${path}.enum`, from: source.enum.length, to: copy.enum.length });
    }
    if (isRecord(source.properties) && isRecord(copy.properties)) {
      for (const [name, sub] of Object.entries(source.properties)) visit(sub, copy.properties[name], `${path}.properties.${name}`, refs);
    }
    if (isRecord(source.items)) visit(source.items, copy.items, `${path}.items`, refs);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const list = source[key];
      const kept = copy[key];
      if (!Array.isArray(list) || !Array.isArray(kept)) continue;
      if (kept.length < list.length) cuts.push({ kind: 'alternatives', path: `${path}.${key}`, from: list.length, to: kept.length });
      for (const [i, sub] of kept.entries()) visit(list[i], sub, `${path}.${key}[${i}]`, refs);
    }
  };
  visit(root, compact.inputSchema, 'inputSchema', 0);
  return cuts;
}

function oneLine(text: unknown): string {
  return cleanPageText(text, { oneLine: true });
}
