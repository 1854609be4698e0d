/**
 * Which tool forms a batch of DOM mutations asks native Chromium to read again (probed, Chromium 156;
 * tests/e2e/webmcp-conformance-forms.spec.ts). Native keeps a form's tool definition until one of these happens,
 * then reads the whole form again (labels' and options' text included) and re-registers it if anything differs:
 * - one of the form's own tool attributes changes (`toolname`, `tooldescription`, `tooltitle`, `toolautosubmit`);
 *   its other attributes (`class`, `data-*`) do not count;
 * - any attribute of one of its controls (a listed element: `input`, `select`, `textarea`, `button`, `fieldset`,
 *   `output`, `object`) changes, except an inline style set through `element.style`;
 * - the form's own children change, or a control is added to or removed from somewhere inside it.
 * Text changes, an `<option>`'s or `<label>`'s attributes, options coming and going, and controls elsewhere in the
 * document do not count: the definition stays what it was, stale text included, until something that counts.
 */

/** The form attributes that make a tool form's definition. */
const TOOL_FORM_ATTRIBUTES = new Set(['toolname', 'tooldescription', 'tooltitle', 'toolautosubmit']);

/** Listed elements (HTML's form-associated elements that a form's `elements` lists). */
const CONTROLS = 'button, fieldset, input, object, output, select, textarea';

/** The forms whose definition these mutations make native read again. */
export function formsTouchedBy(records: readonly MutationRecord[]): Set<HTMLFormElement> {
  const touched = new Set<HTMLFormElement>();
  for (const record of records) {
    const target = record.target as Element;
    if (target.nodeType !== 1) continue;
    if (record.type === 'attributes') {
      if (isForm(target)) {
        if (TOOL_FORM_ATTRIBUTES.has(record.attributeName ?? '')) touched.add(target);
      } else if (target.matches(CONTROLS) && record.attributeName !== 'style') {
        const form = (target as HTMLInputElement).form;
        if (form) touched.add(form);
      }
    } else if (record.type === 'childList') {
      if (isForm(target)) {
        touched.add(target);
        continue;
      }
      const form = target.closest('form');
      if (form && [...record.addedNodes, ...record.removedNodes].some(holdsControl)) touched.add(form);
    }
  }
  return touched;
}

function isForm(element: Element): element is HTMLFormElement {
  return element.localName === 'form' && element.namespaceURI === 'http://www.w3.org/1999/xhtml';
}

/** Whether a node added or removed is a control or has one inside. */
function holdsControl(node: Node): boolean {
  if (node.nodeType !== 1) return false;
  const element = node as Element;
  return element.matches(CONTROLS) || element.querySelector(CONTROLS) !== null;
}
