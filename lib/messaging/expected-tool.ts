/**
 * Binds a call to the tool instance the agent host judged (and the person approved): the document, frame, origin
 * and WebMCP name of the snapshot entry it showed, and the arguments. Between "Allow pay on 127.0.0.1?" and the
 * click, the tab may have navigated to another site that also has a `pay`; the router then refuses to run it.
 */
import type { ToolCall } from '../agent/types';
import type { ExpectedTool } from './router-messages';
import type { TabToolEntry } from './tab-tool-snapshot';
import { isRecord } from '../shared/is-record';
import { hostOf } from '../shared/host-of';

/** The expectation for `call` from the snapshot entry the host showed (or judged). */
export function expectedToolOf(entry: TabToolEntry, call: ToolCall): ExpectedTool {
  return {
    frameId: entry.frameId,
    ...(entry.documentId ? { documentId: entry.documentId } : {}),
    origin: entry.origin,
    originalName: entry.originalName,
    input: call.input,
  };
}

/** A well-formed ExpectedTool from an untrusted message, or undefined. */
export function readExpectedTool(value: unknown): ExpectedTool | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.frameId !== 'number' || typeof v.origin !== 'string' || typeof v.originalName !== 'string') return undefined;
  if (v.documentId !== undefined && typeof v.documentId !== 'string') return undefined;
  return {
    frameId: v.frameId,
    ...(typeof v.documentId === 'string' ? { documentId: v.documentId } : {}),
    origin: v.origin,
    originalName: v.originalName,
    input: v.input,
  };
}

/**
 * Why the tool that `name` reaches now is not the one expected, in words for the model and the person, or undefined
 * when it is the same instance with the same arguments.
 */
export function toolChange(name: string, expected: ExpectedTool, now: TabToolEntry | undefined, input: unknown): string | undefined {
  const nothing = 'Nothing was run; ask the person again if it is still wanted.';
  if (!now) return `"${name}" is no longer on the page the person approved it on. ${nothing}`;
  if (now.origin !== expected.origin) {
    return `"${name}" now belongs to ${hostOf(now.origin)}, not ${hostOf(expected.origin)} where the person approved it (the page changed). ${nothing}`;
  }
  if (now.frameId !== expected.frameId || now.originalName !== expected.originalName) {
    return `"${name}" now names another tool on the page than the one the person approved. ${nothing}`;
  }
  if (expected.documentId !== undefined && now.documentId !== expected.documentId) {
    return `The page was reloaded or navigated after the person approved "${name}". ${nothing}`;
  }
  if (canonicalJson(input) !== canonicalJson(expected.input)) {
    return `The arguments of "${name}" differ from the ones the person approved. ${nothing}`;
  }
  return undefined;
}

/** JSON with object keys sorted, so equal values compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      isRecord(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, v[k]]),
          )
        : v,
    ) ?? 'undefined'
  );
}
