import { cleanPageText } from '../page-data/clean-page-text';
import type { ScannedField, ScannedForm } from './audit-types';

/** Most forms read per frame, fields per form, and characters per string: a page may have thousands. */
const MAX_FORMS = 50;
const MAX_FIELDS = 100;
const MAX_TEXT = 120;
/** Controls an agent does not fill: buttons, and what the declarative API leaves out (lib/page-world/describe-form.ts). */
const NOT_FILLED = new Set(['submit', 'button', 'reset', 'image', 'file']);

/**
 * The forms of a document as the audit needs them: each form's toolname, whether it has a tooldescription and
 * toolautosubmit, and the controls an agent could fill with their names, labels and whether they are described.
 * Runs in the audited page's frames (entrypoints/form-scan.ts, injected by the side panel with
 * scripting.executeScript), so it reads only attributes and labels and changes nothing. Its result is untrusted
 * on the way back (readFormScan).
 */
export function scanForms(doc: Document): { origin: string; forms: ScannedForm[] } {
  const forms: ScannedForm[] = [];
  const all = Array.from(doc.forms).slice(0, MAX_FORMS);
  for (const [index, form] of all.entries()) {
    const fields: ScannedField[] = [];
    for (const element of Array.from(form.elements)) {
      if (fields.length >= MAX_FIELDS) break;
      const tag = element.tagName;
      if (tag !== 'INPUT' && tag !== 'SELECT' && tag !== 'TEXTAREA') continue;
      const control = element as HTMLInputElement;
      if (control.disabled) continue;
      const type = tag === 'INPUT' ? control.type || 'text' : tag.toLowerCase();
      if (NOT_FILLED.has(type)) continue;
      const paramDescription = text(control.getAttribute('toolparamdescription'));
      // A hidden input becomes a parameter only when it is described for agents (as the polyfill reads it).
      if (type === 'hidden' && !paramDescription) continue;
      const label = text(control.labels?.[0]?.textContent);
      fields.push({
        name: text(control.getAttribute('name')),
        type,
        label: label || text(control.getAttribute('aria-label')) || text(control.getAttribute('placeholder')),
        described: paramDescription !== '' || label !== '',
      });
    }
    const toolname = form.getAttribute('toolname');
    forms.push({
      label: formLabel(form, index),
      ...(toolname !== null ? { toolname: text(toolname) } : {}),
      hasDescription: text(form.getAttribute('tooldescription')) !== '',
      autosubmit: form.hasAttribute('toolautosubmit'),
      fields,
    });
  }
  return { origin: doc.location?.origin ?? '', forms };
}

/** How a person finds the form: its id, name, aria-label, or its place among the document's forms. */
function formLabel(form: HTMLFormElement, index: number): string {
  const id = text(form.getAttribute('id'));
  if (id) return `#${id}`;
  const name = text(form.getAttribute('name'));
  if (name) return `form "${name}"`;
  const aria = text(form.getAttribute('aria-label'));
  if (aria) return `form “${aria}”`;
  return `form ${index + 1}`;
}

function text(value: string | null | undefined): string {
  return cleanPageText(value ?? '', { oneLine: true, max: MAX_TEXT });
}
