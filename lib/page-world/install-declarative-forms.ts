/**
 * Declarative WebMCP for the polyfill: every `<form toolname tooldescription>` in the document becomes a tool of
 * the given context, kept in step with the DOM (forms added, removed or edited). Calling one checks every value
 * first, then fills the fields (with input/change events, through the native setters so frameworks notice), as
 * native Chromium 156 does (docs/webmcp-conformance.md), then:
 * - with `toolautosubmit`: submits it (requestSubmit, so validation and submit handlers run);
 * - without: focuses its submit control and waits for the person to submit it.
 * The submit event then says `agentInvoked`; a handler that calls preventDefault() and `respondWith(promise)`
 * while the event is dispatched supplies the result. preventDefault() without respondWith() rejects the call, as
 * native does; a submission nobody prevented (or one the page makes with `form.submit()`) navigates: the call
 * resolves as navigated (null). From the fill until the call ends, the form carries `data-tool-form-active` and
 * its submit control `data-tool-submit-active`, the page's stand-ins for native's `:tool-form-active` and
 * `:tool-submit-active` (script cannot add pseudo-classes).
 *
 * Chromium's native implementation does all this itself; this file only runs when there is none.
 */
import { submitEventState } from './define-submit-event-members';
import { formsTouchedBy } from './forms-touched-by';
import type { PolyfillModelContext } from './install-model-context-polyfill';
import { isInt32, nativeValueText } from './native-value-text';
import { NAVIGATED } from './serialize-tool-result';

/** What a page can style while a form's call runs, in place of native's pseudo-classes. */
export const FORM_ACTIVE_ATTRIBUTE = 'data-tool-form-active';
export const SUBMIT_ACTIVE_ATTRIBUTE = 'data-tool-submit-active';

/** Native Chromium's words for a submit event prevented without an answer. */
const PREVENTED_WITHOUT_ANSWER =
  "The site has a programming error: it called preventDefault() on the 'submit' event, without also calling respondWith() with the tool result";

/** Native Chromium's words when a form's call ends because its tool changed or went away. */
const DEFINITION_UPDATED = 'Tool execution cancelled, since tool definition was updated';

const refuse = (why: string) => new DOMException(`Failed to execute 'respondWith' on 'SubmitEvent': ${why}`, 'InvalidStateError');

interface FormRegistration {
  controller: AbortController;
  fingerprint: string;
}

/** A call on a form, from the fill until it ends. */
interface FormCall {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** The submit event that answers it, once dispatched (later submits are the person's own). */
  event?: Event;
  /** The page called `form.submit()` while that event was dispatched. */
  submitted?: boolean;
}

/** Starts watching the document's forms. Returns a function that stops and unregisters them. */
export function installDeclarativeForms(win: Window & typeof globalThis, context: PolyfillModelContext): () => void {
  const doc = win.document;
  const registrations = new Map<HTMLFormElement, FormRegistration>();
  const calls = new Map<HTMLFormElement, FormCall>();
  const submits = submitEventState(win);

  /** Runs first for every submit event (see define-submit-event-members.ts): marks the one a call waits for. */
  const onSubmit = (event: Event) => {
    const form = event.target as HTMLFormElement;
    const call = calls.get(form);
    if (!call || call.event) return;
    call.event = event;
    let open = true;
    let response: Promise<unknown> | undefined;
    submits.agent.set(event, {
      // Native's checks and words, once the event is the agent's.
      respond: (target, value) => {
        if (!open) throw refuse('To call respondWith, the event must be currently being dispatched.');
        if (!target.defaultPrevented) throw refuse('To call respondWith, you must first call preventDefault.');
        response = Promise.resolve(value);
      },
    });
    const unwatch = watchSubmitMethod(form, call);
    // Queued before any page listener runs, so this task comes after every microtask the listeners queue (native
    // counts those as part of the dispatch) and before any task they queue (native: too late for respondWith).
    win.setTimeout(() => {
      open = false;
      unwatch();
      if (calls.get(form) !== call) return;
      if (response) {
        response.then(call.resolve, () => call.reject(new DOMException('respondWith promise was rejected', 'UnknownError')));
      } else if (event.defaultPrevented && !call.submitted) {
        call.reject(new DOMException(PREVENTED_WITHOUT_ANSWER, 'UnknownError'));
      } else {
        call.resolve(NAVIGATED);
      }
    }, 0);
  };
  submits.onSubmit = onSubmit;
  // Where the page-world stub ran, its listener came first and already called onSubmit (a second call does nothing).
  win.addEventListener('submit', onSubmit, true);

  /**
   * Registers the tool forms not registered yet, reads again those in `touched` (forms-touched-by.ts: as native,
   * a form's definition is kept until something native counts changes), and unregisters the forms that are gone.
   */
  const sync = (touched: ReadonlySet<HTMLFormElement>) => {
    const seen = new Set<HTMLFormElement>();
    for (const form of doc.querySelectorAll<HTMLFormElement>('form[toolname][tooldescription]')) {
      seen.add(form);
      const existing = registrations.get(form);
      if (existing && !touched.has(form)) continue;
      const definition = describeForm(form);
      // toolautosubmit is part of the definition too: native cancels a waiting call when it changes.
      const fingerprint = JSON.stringify([definition, form.hasAttribute('toolautosubmit')]);
      if (existing?.fingerprint === fingerprint) continue;
      existing?.controller.abort();
      // As native: a call of the form ends when its definition changes (name, title, description, fields,
      // toolautosubmit), even one whose submit event already answered with a promise still pending.
      if (existing) calls.get(form)?.reject(new DOMException(DEFINITION_UPDATED, 'UnknownError'));
      const controller = new AbortController();
      registrations.set(form, { controller, fingerprint });
      context
        .registerTool(
          {
            ...definition,
            execute: (input: Record<string, unknown>, client: { signal: AbortSignal }) => run(form, input, client.signal),
          },
          { signal: controller.signal },
        )
        // A registration refused, or aborted before it settled (the form changed again at once): forget it, unless
        // a newer one of the same form has taken its place meanwhile.
        .catch(() => {
          if (registrations.get(form)?.controller === controller) registrations.delete(form);
        });
    }
    for (const [form, registration] of registrations) {
      if (seen.has(form)) continue;
      registration.controller.abort();
      registrations.delete(form);
      // A call still waiting for its submit ends with its form; one answered by a submit event keeps that answer.
      const call = calls.get(form);
      if (call && !call.event) call.reject(new DOMException(DEFINITION_UPDATED, 'UnknownError'));
    }
  };

  const run = (form: HTMLFormElement, input: Record<string, unknown>, signal: AbortSignal): Promise<unknown> => {
    fillForm(win, form, input);
    const submitter = findSubmitter(win, form);
    const autosubmit = form.hasAttribute('toolautosubmit');
    if (!autosubmit && !submitter) {
      throw new Error('A declarative form without toolautosubmit needs a submit button for the person to press');
    }
    return new Promise((resolve, reject) => {
      // As native: resetting the form cancels its call.
      const onReset = () => call.reject(new DOMException('Tool execution cancelled by a form reset', 'UnknownError'));
      const end = () => {
        if (calls.get(form) !== call) return;
        calls.delete(form);
        form.removeEventListener('reset', onReset);
        form.removeAttribute(FORM_ACTIVE_ATTRIBUTE);
        submitter?.removeAttribute(SUBMIT_ACTIVE_ATTRIBUTE);
      };
      const call: FormCall = {
        resolve: (value) => {
          end();
          resolve(value);
        },
        reject: (error) => {
          end();
          reject(error);
        },
      };
      // A form has one call at a time: a new one ends the last (whose agent has moved on).
      calls.get(form)?.reject(new DOMException('Another call of this form started', 'UnknownError'));
      calls.set(form, call);
      form.addEventListener('reset', onReset);
      form.setAttribute(FORM_ACTIVE_ATTRIBUTE, '');
      submitter?.setAttribute(SUBMIT_ACTIVE_ATTRIBUTE, '');
      // Before the polyfill tells the page (toolcancel), as native clears its pseudo-classes first.
      signal.addEventListener('abort', end, { once: true });
      if (autosubmit) {
        // As requestSubmit: no validation for a form with novalidate, nor through a formnovalidate button.
        if (!form.noValidate && !submitter?.formNoValidate && !form.checkValidity()) {
          call.reject(new Error(`Form validation failed: ${validationMessages(form)}`));
          return;
        }
        form.requestSubmit(submitter ?? undefined);
      } else {
        submitter?.focus();
      }
    });
  };

  let touched: Set<HTMLFormElement> | undefined;
  const observer = new win.MutationObserver((records) => {
    const batch = formsTouchedBy(records);
    if (touched) {
      for (const form of batch) touched.add(form);
      return;
    }
    touched = batch;
    queueMicrotask(() => {
      const forms = touched ?? new Set<HTMLFormElement>();
      touched = undefined;
      sync(forms);
    });
  });
  // Elements coming and going (forms, and controls inside them) and attributes: which count is formsTouchedBy's.
  observer.observe(doc, { childList: true, subtree: true, attributes: true });
  sync(new Set());
  return () => {
    observer.disconnect();
    win.removeEventListener('submit', onSubmit, true);
    if (submits.onSubmit === onSubmit) submits.onSubmit = undefined;
    for (const registration of registrations.values()) registration.controller.abort();
    registrations.clear();
  };
}

/**
 * While an agent's submit event is dispatched, notes a `form.submit()` by the page (native resolves that call as
 * navigated, not as prevented without an answer). An own property of that one form, gone when the dispatch ends;
 * where a control named "submit" hides the method, the page cannot call it that way either.
 */
function watchSubmitMethod(form: HTMLFormElement, call: FormCall): () => void {
  const original = form.submit;
  if (typeof original !== 'function' || Object.hasOwn(form, 'submit')) return () => {};
  const watched = function submit(this: HTMLFormElement) {
    call.submitted = true;
    return Reflect.apply(original, this, []);
  };
  try {
    Object.defineProperty(form, 'submit', { configurable: true, writable: true, value: watched });
  } catch {
    return () => {};
  }
  return () => {
    if (Object.getOwnPropertyDescriptor(form, 'submit')?.value === watched) delete (form as unknown as Record<string, unknown>).submit;
  };
}

/** The tool a form declares: name, description and a JSON Schema synthesised from its named controls. */
function describeForm(form: HTMLFormElement): {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
} {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, controls] of groupControls(form)) {
    const schema = controlSchema(controls);
    if (!schema) continue;
    properties[name] = schema;
    if (controls.some((c) => (c as HTMLInputElement).required)) required.push(name);
  }
  return {
    name: form.getAttribute('toolname') ?? '',
    title: form.getAttribute('tooltitle') ?? '',
    description: form.getAttribute('tooldescription') ?? '',
    inputSchema: { type: 'object', properties, required },
  };
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** What native groups by name: every listed form control, buttons, fieldsets and outputs too (not objects). */
type Listed = Control | HTMLButtonElement | HTMLFieldSetElement | HTMLOutputElement;
const LISTED_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'FIELDSET', 'OUTPUT']);

/** Input types that take no value from an agent, though their names count (a field sharing one is no parameter). */
const UNFILLABLE_TYPES = new Set(['submit', 'button', 'reset', 'image', 'file']);

/** Input types whose `readonly` applies: a read-only one of these is no parameter, as native (it cannot be filled). */
const READ_ONLY_TYPES = new Set([
  'text',
  'search',
  'url',
  'tel',
  'email',
  'password',
  'date',
  'month',
  'week',
  'time',
  'datetime-local',
  'number',
]);

/** Input types whose `pattern` native puts in the schema (it does not for dates and times). */
const PATTERN_TYPES = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'number']);

/** Native Chromium 156's `format` for the date and time types other than `date`, and for colours: patterns, as it gives them. */
const FORMATS: Record<string, string> = {
  time: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  'datetime-local': '^[0-9]{4}-(0[1-9]|1[0-2])-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]$',
  month: '^[0-9]{4}-(0[1-9]|1[0-2])$',
  week: '^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$',
  color: '^#[0-9a-zA-Z]{6}$',
};

/** Native's note on a date field, after its description in parentheses or alone. */
const DATE_NOTE = "Dates MUST be provided in 'YYYY-MM-DD' format.";

/**
 * The form's controls by name, as native groups them (probed): every listed control that is not disabled (a
 * disabled fieldset's included) nor read-only where that applies. Buttons (image buttons too), file fields,
 * fieldsets and outputs count, so a field whose name one of them shares is no parameter. A control without a name
 * has the name "" (a parameter only when nothing else, a submit button included, is nameless).
 */
function groupControls(form: HTMLFormElement): Map<string, Listed[]> {
  const groups = new Map<string, Listed[]>();
  // form.elements leaves out image buttons (for old pages' sake); native counts them. Where they come does not
  // matter: a name one of them has is no parameter.
  const inputs = new Set([
    ...Array.from(form.querySelectorAll('input')),
    ...Array.from(form.ownerDocument.querySelectorAll<HTMLInputElement>('input[form]')),
  ]);
  const images = [...inputs].filter((input) => input.type === 'image' && input.form === form);
  for (const element of [...Array.from(form.elements), ...images]) {
    const tag = element.tagName;
    if (!LISTED_TAGS.has(tag) || element.matches(':disabled')) continue;
    const readOnlyApplies = tag === 'TEXTAREA' || (tag === 'INPUT' && READ_ONLY_TYPES.has((element as HTMLInputElement).type));
    if (readOnlyApplies && element.hasAttribute('readonly')) continue;
    const control = element as Listed;
    const list = groups.get(control.name) ?? [];
    list.push(control);
    groups.set(control.name, list);
  }
  return groups;
}

/** Whether every one of these can take a value: inputs (not buttons nor files), selects and text areas. */
function fillable(controls: Listed[]): controls is Control[] {
  return controls.every(
    (c) =>
      c.tagName === 'SELECT' || c.tagName === 'TEXTAREA' || (c.tagName === 'INPUT' && !UNFILLABLE_TYPES.has((c as HTMLInputElement).type)),
  );
}

/** The text of a control's labels as native reads it: each label's text (not the control's own), trimmed, joined by "; ". */
function labelText(control: Control): string {
  return Array.from(control.labels ?? [])
    .map((label) => textOutside(label, control).trim())
    .filter(Boolean)
    .join('; ');
}

/** An element's text content without that of one of its descendants (a label's text without its select's options). */
function textOutside(root: Node, skip: Node): string {
  let text = '';
  for (const child of Array.from(root.childNodes)) {
    if (child === skip) continue;
    text += child.nodeType === 3 ? (child.nodeValue ?? '') : textOutside(child, skip);
  }
  return text;
}

function describeControl(control: Control): string | undefined {
  return control.getAttribute('toolparamdescription') || labelText(control) || control.getAttribute('aria-description') || undefined;
}

/** A number as HTML parses a valid floating-point number attribute, or undefined. */
function parseNumber(value: string | null): number | undefined {
  if (value === null || !/^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** `{type, const, title}` for each choice (no title where it has none), with `enum` beside, as native lists them. */
function choices(values: [value: string, title: string | undefined][]): { type: 'string'; anyOf: unknown[]; enum: string[] } {
  return {
    type: 'string',
    anyOf: values.map(([value, title]) =>
      title === undefined ? { type: 'string', const: value } : { type: 'string', const: value, title },
    ),
    enum: values.map(([value]) => value),
  };
}

/**
 * A parameter's schema, as native Chromium 156 gives it (keys in its order; `description` last): probed control by
 * control (docs/webmcp-conformance.md). A name shared by controls that are neither all radio buttons nor all
 * checkboxes is no parameter of the schema.
 */
function controlSchema(listed: Listed[]): Record<string, unknown> | undefined {
  if (!fillable(listed)) return undefined;
  const controls = listed;
  const first = controls[0];
  const type = first.tagName === 'INPUT' ? (first as HTMLInputElement).type : first.tagName;
  const description = describeControl(first);
  const withDescription = (schema: Record<string, unknown>) => (description ? { ...schema, description } : schema);
  const titled = (control: Control): [string, string | undefined] => [control.value, labelText(control) || undefined];
  // Radio buttons: one choice each, titled by its labels; native gives the group no description.
  if (controls.every((c) => c.tagName === 'INPUT' && (c as HTMLInputElement).type === 'radio')) return choices(controls.map(titled));
  if (controls.length > 1) {
    // Checkboxes sharing a name: native offers them as a set of their values.
    if (controls.every((c) => c.tagName === 'INPUT' && (c as HTMLInputElement).type === 'checkbox')) {
      return { type: 'array', items: choices(controls.map(titled)), uniqueItems: true };
    }
    return undefined;
  }
  if (type === 'SELECT') {
    const options = choices(Array.from((first as HTMLSelectElement).options).map((o) => [o.value, o.text]));
    // As native: a <select multiple> takes an array of its option values.
    if ((first as HTMLSelectElement).multiple) return withDescription({ type: 'array', items: options, uniqueItems: true });
    return withDescription(options);
  }
  if (type === 'TEXTAREA') return withDescription({ type: 'string' });
  const input = first as HTMLInputElement;
  if (type === 'checkbox') return withDescription({ type: 'boolean' });
  if (type === 'hidden') return input.hasAttribute('toolparamdescription') ? withDescription({ type: 'string' }) : undefined;
  if (type === 'date') {
    return { type: 'string', format: 'date', description: description ? `${description} (${DATE_NOTE})` : DATE_NOTE };
  }
  if (type in FORMATS) return withDescription({ type: 'string', format: FORMATS[type] });
  const schema: Record<string, unknown> = { type: type === 'number' || type === 'range' ? 'number' : 'string' };
  if (schema.type === 'number') {
    // A range has a minimum and maximum even without min and max (0 and 100).
    const min = parseNumber(input.getAttribute('min')) ?? (type === 'range' ? 0 : undefined);
    const max = parseNumber(input.getAttribute('max')) ?? (type === 'range' ? 100 : undefined);
    if (min !== undefined) schema.minimum = min;
    if (max !== undefined) schema.maximum = max;
    // multipleOf is the step (1 unless a valid positive step is given; none for step="any"), given only where the
    // values the step allows are its multiples: where the step base (min, else value, else 0) is one.
    const stepAttribute = input.getAttribute('step');
    if (stepAttribute?.trim().toLowerCase() !== 'any') {
      const given = parseNumber(stepAttribute);
      const step = given !== undefined && given > 0 ? given : 1;
      const base = parseNumber(input.getAttribute('min')) ?? parseNumber(input.getAttribute('value')) ?? 0;
      const ratio = base / step;
      if (Math.abs(ratio - Math.round(ratio)) < 1e-9) schema.multipleOf = step;
    }
  }
  if (PATTERN_TYPES.has(type) && input.hasAttribute('pattern')) schema.pattern = input.getAttribute('pattern');
  return withDescription(schema);
}

/**
 * Fills the form as native Chromium 156 does: every value is checked first (a wrong one rejects the call and
 * changes nothing), then each control is set, with events only where native sends them.
 */
function fillForm(win: Window & typeof globalThis, form: HTMLFormElement, input: Record<string, unknown>): void {
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

/** The form's first enabled submit control. */
function findSubmitter(win: Window & typeof globalThis, form: HTMLFormElement): HTMLButtonElement | HTMLInputElement | undefined {
  for (const element of Array.from(form.elements)) {
    if (element instanceof win.HTMLButtonElement && element.type === 'submit' && !element.disabled) return element;
    if (element instanceof win.HTMLInputElement && (element.type === 'submit' || element.type === 'image') && !element.disabled) {
      return element;
    }
  }
  return undefined;
}

/** Native's list of what failed: "name: message. " for every invalid control (selects and text areas too; a nameless one as ""). */
function validationMessages(form: HTMLFormElement): string {
  return (Array.from(form.elements) as HTMLInputElement[])
    .filter((e) => e.willValidate && !e.validity.valid)
    .map((e) => `${e.name}: ${e.validationMessage}. `)
    .join('');
}
