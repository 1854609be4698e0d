/**
 * Filling a declarative form with an agent's input as native Chromium 156 does (docs/webmcp-conformance.md): every
 * value is checked first, then each control is set through the native setters (frameworks watch them), with
 * `input` and `change` only where native sends them.
 */
import { type Control, controlSchema, groupControls, type Listed } from './describe-form';
import { isInt32, nativeValueText } from './native-value-text';

/**
 * Fills the form as native Chromium 156 does: every value is checked first (a wrong one rejects the call and
 * changes nothing), then each control is set, with events only where native sends them.
 */
export function fillForm(win: Window & typeof globalThis, form: HTMLFormElement, input: Record<string, unknown>): void {
  const groups = groupControls(form);
  const steps: (() => void)[] = [];
  for (const [key, value] of Object.entries(input)) {
    const controls = groups.get(key);
    if (!controls) throw new TypeError(`Input contains a parameter "${key}" but there is no such parameter for the tool`);
    steps.push(planFill(win, key, controls, value));
  }
  for (const step of steps) step();
}

/** Native's words for a value a control cannot take (it quotes the text it made of a string, number or boolean). */
function invalidValue(key: string, value: unknown): TypeError {
  const text = nativeValueText(value);
  return new TypeError(`Invalid value${text === undefined ? '' : ` "${text}"`} for parameter ${key}`);
}

/**
 * A checkbox's value as native reads it: a boolean; an integer that fits in 32 bits (0 unchecks, any other checks;
 * a larger one, or a fraction, is a double to Chromium and refused); or the strings "true", "false", "1", "0" in
 * any case. Anything else (including "on" and the checkbox's own value) is invalid.
 */
export function checkboxValue(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return isInt32(value) ? value !== 0 : undefined;
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return lower === 'true' || lower === '1' ? true : lower === 'false' || lower === '0' ? false : undefined;
}

/** An array's items as native's texts, when every one has a text and none repeats (else undefined). */
function distinctTexts(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const texts = value.map(nativeValueText);
  if (texts.some((text) => text === undefined) || new Set(texts).size !== texts.length) return undefined;
  return texts as string[];
}

/**
 * Whether the field would make `text` empty (a text field drops line breaks, an email or URL field trims, a number
 * or date field empties what it cannot read): native refuses such a value. Read from a field of the same type that
 * is in no document, so the page's own field is not touched before every value has been checked.
 */
function sanitizesToEmpty(control: Control, text: string): boolean {
  if (text === '' || control.tagName !== 'INPUT' || control.type === 'hidden') return false;
  const probe = control.ownerDocument.createElement('input');
  probe.type = control.type;
  probe.multiple = (control as HTMLInputElement).multiple;
  probe.value = text;
  return probe.value === '';
}

/** Checks one value against its controls; returns what sets it. Native's rules, probed (docs/webmcp-conformance.md). */
function planFill(win: Window & typeof globalThis, key: string, listed: Listed[], value: unknown): () => void {
  // A name shared by fields that are not all radio buttons or all checkboxes, or a button's, a file field's, or a
  // hidden field's without a description, takes no value.
  if (!controlSchema(listed)) throw invalidValue(key, value);
  const controls = listed as Control[];
  const first = controls[0];
  const type = first.tagName === 'INPUT' ? (first as HTMLInputElement).type : first.tagName;
  if (type === 'checkbox' && controls.length > 1) {
    // Checkboxes sharing a name take an array of their values, each once; exactly those end up checked.
    const texts = distinctTexts(value);
    if (!texts?.every((text) => controls.some((c) => c.value === text))) throw invalidValue(key, value);
    return () => {
      for (const box of controls) setChecked(win, box as HTMLInputElement, texts.includes(box.value));
    };
  }
  if (type === 'checkbox') {
    const checked = checkboxValue(value);
    if (checked === undefined) throw invalidValue(key, value);
    return () => setChecked(win, first as HTMLInputElement, checked);
  }
  const text = nativeValueText(value);
  if (type === 'radio') {
    const match = controls.find((c) => c.value === text);
    if (!match) throw invalidValue(key, value);
    return () => setChecked(win, match as HTMLInputElement, true);
  }
  if (type === 'SELECT') {
    const select = first as HTMLSelectElement;
    const values = Array.from(select.options).map((o) => o.value);
    if (select.multiple) {
      const texts = distinctTexts(value);
      if (!texts?.every((t) => values.includes(t))) throw invalidValue(key, value);
      return () => selectOptions(win, select, texts);
    }
    if (text === undefined || !values.includes(text)) throw invalidValue(key, value);
    return () => setValue(win, select, text);
  }
  // A number or range field needs some text; any field refuses a text it would empty.
  if (text === undefined || (text === '' && (type === 'number' || type === 'range')) || sanitizesToEmpty(first, text)) {
    throw invalidValue(key, value);
  }
  return () => setValue(win, first, text);
}

/** input, then change, as native dispatches them after an agent's fill (plain Events; input is composed). */
function announce(control: Element, input: boolean): void {
  if (input) control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * Sets a value through the native setter (frameworks watch it); events only when the value the field then holds
 * differs from before (a range's "abc" that comes out as its value changes nothing), never for a hidden field.
 */
function setValue(win: Window & typeof globalThis, control: Control, value: string): void {
  const before = control.value;
  const proto =
    control.tagName === 'SELECT'
      ? (win as any).HTMLSelectElement.prototype
      : control.tagName === 'TEXTAREA'
        ? (win as any).HTMLTextAreaElement.prototype
        : (win as any).HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(control, value);
  if (control.value !== before && control.type !== 'hidden') announce(control, true);
}

/** A checkbox or radio button: `input` only when it changes, `change` always (as native). */
function setChecked(win: Window & typeof globalThis, control: HTMLInputElement, checked: boolean): void {
  const changed = control.checked !== checked;
  if (changed) Object.getOwnPropertyDescriptor((win as any).HTMLInputElement.prototype, 'checked')?.set?.call(control, checked);
  announce(control, changed);
}

/** A <select multiple>: exactly the given options selected, with one `input` and one `change` if that changed anything. */
function selectOptions(win: Window & typeof globalThis, select: HTMLSelectElement, values: string[]): void {
  const options = Array.from(select.options);
  if (options.every((o) => o.selected === values.includes(o.value))) return;
  const setter = Object.getOwnPropertyDescriptor((win as any).HTMLOptionElement.prototype, 'selected')?.set;
  for (const option of options) setter?.call(option, values.includes(option.value));
  announce(select, true);
}
