/**
 * A tool's annotations as an agent may use them, from whatever a WebMCP implementation reports: the names pages
 * register with (`readOnlyHint`, `untrustedContentHint`, `consequentialHint`, `debugging`; Chromium 156's getTools)
 * and the names Chrome's DevTools protocol reports them under (`readOnly`, `untrustedContent`, `consequential`,
 * `debugging`, `autosubmit`; docs/platform-notes.md, "Chrome's newer shapes"), so a Chrome that lists them that way
 * loses none. Only booleans count. When the two names of one hint disagree, the careful reading wins: read-only only
 * if neither says otherwise, untrusted content, consequential and debugging if either says so (a page gains nothing
 * by naming a hint twice).
 */
import type { ToolAnnotations } from '../agent/types';
import { readPageField } from './read-page-field';

/** What a tool's annotations say: the hints, and `autosubmit` where a declarative tool's is reported. */
interface AnnotationFlags {
  annotations?: ToolAnnotations;
  /** Reported for a declarative form's tool only: whether the form submits itself (`toolautosubmit`). */
  autosubmit?: boolean;
}

/** Each hint with its other name, and whether `true` is the careful answer when the two disagree. */
const HINTS = [
  { key: 'readOnlyHint', alias: 'readOnly', carefulIs: false },
  { key: 'untrustedContentHint', alias: 'untrustedContent', carefulIs: true },
  { key: 'consequentialHint', alias: 'consequential', carefulIs: true },
  { key: 'debugging', alias: undefined, carefulIs: true },
] as const;

/** Reads an untrusted annotations object (a dictionary, an interface object, or anything else) field by field. */
export function readAnnotationFlags(value: unknown): AnnotationFlags {
  if (typeof value !== 'object' || value === null) return {};
  const annotations: ToolAnnotations = {};
  for (const { key, alias, carefulIs } of HINTS) {
    const said = [readPageField(value, key), alias ? readPageField(value, alias) : undefined].filter(
      (v): v is boolean => typeof v === 'boolean',
    );
    if (said.length > 0) annotations[key] = said.includes(carefulIs) ? carefulIs : !carefulIs;
  }
  const autosubmit = readPageField(value, 'autosubmit');
  return {
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(typeof autosubmit === 'boolean' ? { autosubmit } : {}),
  };
}
