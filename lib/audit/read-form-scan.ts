import { cleanPageText } from '../page-data/clean-page-text';
import { isRecord } from '../shared/is-record';
import type { FrameForms, ScannedField, ScannedForm } from './audit-types';

const MAX_FRAMES = 50;
const MAX_FORMS = 50;
const MAX_FIELDS = 100;
const MAX_TEXT = 120;

/**
 * What `scripting.executeScript` brought back from scanForms in each frame, read as untrusted data: the frames
 * run the page's code (a compromised renderer can answer anything), so every field is checked, every string
 * cleaned and cut, every list bounded, and anything malformed left out.
 */
export function readFormScan(results: unknown): FrameForms[] {
  if (!Array.isArray(results)) return [];
  const frames: FrameForms[] = [];
  for (const entry of results.slice(0, MAX_FRAMES)) {
    if (!isRecord(entry) || !Number.isInteger(entry.frameId) || (entry.frameId as number) < 0) continue;
    const result = entry.result;
    if (!isRecord(result) || !Array.isArray(result.forms)) continue;
    const forms = result.forms.slice(0, MAX_FORMS).flatMap((form) => {
      const read = readForm(form);
      return read ? [read] : [];
    });
    frames.push({ frameId: entry.frameId as number, origin: text(result.origin), forms });
  }
  return frames.sort((a, b) => a.frameId - b.frameId);
}

function readForm(value: unknown): ScannedForm | undefined {
  if (!isRecord(value) || !Array.isArray(value.fields)) return undefined;
  const fields = value.fields
    .slice(0, MAX_FIELDS)
    .flatMap((field): ScannedField[] =>
      isRecord(field)
        ? [{ name: text(field.name), type: text(field.type) || 'text', label: text(field.label), described: field.described === true }]
        : [],
    );
  return {
    label: text(value.label) || 'a form',
    ...(typeof value.toolname === 'string' ? { toolname: text(value.toolname) } : {}),
    hasDescription: value.hasDescription === true,
    autosubmit: value.autosubmit === true,
    fields,
  };
}

function text(value: unknown): string {
  return cleanPageText(value, { oneLine: true, max: MAX_TEXT });
}
