/**
 * Declarative WebMCP for the polyfill: every `<form toolname tooldescription>` in the document becomes a tool of
 * the given context, kept in step with the DOM (forms added, removed or edited). Calling one fills its fields
 * (with input/change events, through the native setters so frameworks notice), then:
 * - with `toolautosubmit`: submits it (requestSubmit, so validation and submit handlers run);
 * - without: focuses its submit control and waits for the person to submit it.
 * The submit event then says `agentInvoked`; a handler that calls preventDefault() and `respondWith(promise)`
 * supplies the result. A submission nobody prevented navigates: the call resolves as navigated (null).
 *
 * Chromium's native implementation does all this itself; this file only runs when there is none.
 */
import { NAVIGATED, type PolyfillModelContext } from './install-model-context-polyfill';

const FORM_ATTRIBUTES = [
  'toolname',
  'tooldescription',
  'tooltitle',
  'toolautosubmit',
  'toolparamdescription',
  'name',
  'type',
  'required',
  'disabled',
  'min',
  'max',
  'value',
];

interface FormRegistration {
  controller: AbortController;
  fingerprint: string;
}

interface PendingSubmission {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Starts watching the document's forms. Returns a function that stops and unregisters them. */
export function installDeclarativeForms(win: Window & typeof globalThis, context: PolyfillModelContext): () => void {
  const doc = win.document;
  const registrations = new Map<HTMLFormElement, FormRegistration>();
  const pending = new Map<HTMLFormElement, PendingSubmission>();
  const responses = new WeakMap<Event, Promise<unknown>>();
  const agentEvents = new WeakSet<Event>();

  installSubmitEventMembers(win, agentEvents, responses);

  const onSubmit = (event: Event) => {
    const form = event.target;
    if (!(form instanceof win.HTMLFormElement) || !pending.has(form)) return;
    agentEvents.add(event);
    const submission = pending.get(form)!;
    // Page handlers run after this capture listener: decide once the event has been dispatched.
    setTimeout(() => {
      pending.delete(form);
      const response = responses.get(event);
      if (response) response.then(submission.resolve, submission.reject);
      else if (event.defaultPrevented) submission.resolve('The form was submitted.');
      else submission.resolve(NAVIGATED);
    }, 0);
  };
  doc.addEventListener('submit', onSubmit, true);

  const sync = () => {
    const seen = new Set<HTMLFormElement>();
    for (const form of doc.querySelectorAll<HTMLFormElement>('form[toolname][tooldescription]')) {
      seen.add(form);
      const definition = describeForm(form);
      const fingerprint = JSON.stringify(definition);
      const existing = registrations.get(form);
      if (existing?.fingerprint === fingerprint) continue;
      existing?.controller.abort();
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
        .catch(() => registrations.delete(form));
    }
    for (const [form, registration] of registrations) {
      if (seen.has(form)) continue;
      registration.controller.abort();
      registrations.delete(form);
      pending.get(form)?.reject(new DOMException('The form was removed', 'UnknownError'));
      pending.delete(form);
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
      pending.set(form, { resolve, reject });
      signal.addEventListener('abort', () => pending.delete(form), { once: true });
      if (autosubmit) {
        if (!form.checkValidity()) {
          pending.delete(form);
          reject(new Error(`Form validation failed: ${validationMessages(win, form)}`));
          return;
        }
        form.requestSubmit(submitter ?? undefined);
      } else {
        submitter?.focus();
      }
    });
  };

  let scheduled = false;
  const observer = new win.MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      sync();
    });
  });
  // Only what can change a form tool: elements coming and going, and the attributes its definition reads.
  observer.observe(doc, { childList: true, subtree: true, attributes: true, attributeFilter: FORM_ATTRIBUTES });
  sync();
  return () => {
    observer.disconnect();
    doc.removeEventListener('submit', onSubmit, true);
    for (const registration of registrations.values()) registration.controller.abort();
    registrations.clear();
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

function groupControls(form: HTMLFormElement): Map<string, Control[]> {
  const groups = new Map<string, Control[]>();
  for (const element of Array.from(form.elements)) {
    const tag = element.tagName;
    if (tag !== 'INPUT' && tag !== 'SELECT' && tag !== 'TEXTAREA') continue;
    const control = element as Control;
    if (!control.name || control.disabled) continue;
    if (tag === 'INPUT' && ['submit', 'button', 'reset', 'image', 'file'].includes((control as HTMLInputElement).type)) continue;
    const list = groups.get(control.name) ?? [];
    list.push(control);
    groups.set(control.name, list);
  }
  return groups;
}

function describeControl(control: Control): string | undefined {
  const label = control.labels?.[0]?.textContent?.trim();
  return control.getAttribute('toolparamdescription') || label || undefined;
}

function controlSchema(controls: Control[]): Record<string, unknown> | undefined {
  const first = controls[0];
  const description = describeControl(first);
  const withDescription = (schema: Record<string, unknown>) => (description ? { ...schema, description } : schema);
  if (first.tagName === 'SELECT') {
    const values = Array.from((first as HTMLSelectElement).options).map((o) => o.value);
    return withDescription({ type: 'string', enum: values });
  }
  if (first.tagName === 'TEXTAREA') return withDescription({ type: 'string' });
  const input = first as HTMLInputElement;
  if (input.type === 'radio') return withDescription({ type: 'string', enum: controls.map((c) => c.value) });
  if (input.type === 'checkbox') return withDescription({ type: 'boolean' });
  if (input.type === 'number' || input.type === 'range') {
    const schema: Record<string, unknown> = { type: 'number' };
    if (input.min !== '' && Number.isFinite(Number(input.min))) schema.minimum = Number(input.min);
    if (input.max !== '' && Number.isFinite(Number(input.max))) schema.maximum = Number(input.max);
    return withDescription(schema);
  }
  if (input.type === 'hidden') return input.hasAttribute('toolparamdescription') ? withDescription({ type: 'string' }) : undefined;
  if (input.type === 'date') return withDescription({ type: 'string', format: 'date' });
  return withDescription({ type: 'string' });
}

function fillForm(win: Window & typeof globalThis, form: HTMLFormElement, input: Record<string, unknown>): void {
  const groups = groupControls(form);
  for (const key of Object.keys(input)) {
    if (!groups.has(key)) throw new TypeError(`Invalid value for declarative form parameter "${key}": the form has no such field`);
  }
  for (const [key, value] of Object.entries(input)) {
    const controls = groups.get(key)!;
    const first = controls[0];
    if (first.tagName === 'INPUT' && (first as HTMLInputElement).type === 'checkbox') {
      setChecked(win, first as HTMLInputElement, value === true || value === 'true' || value === 'on');
    } else if (first.tagName === 'INPUT' && (first as HTMLInputElement).type === 'radio') {
      const match = controls.find((c) => c.value === String(value));
      if (!match) throw new TypeError(`Invalid value for declarative form parameter "${key}": ${JSON.stringify(value)}`);
      setChecked(win, match as HTMLInputElement, true);
    } else if (first.tagName === 'SELECT') {
      const select = first as HTMLSelectElement;
      if (!Array.from(select.options).some((o) => o.value === String(value))) {
        throw new TypeError(`Invalid value for declarative form parameter "${key}": ${JSON.stringify(value)}`);
      }
      setValue(win, select, String(value));
    } else {
      setValue(win, first, value === null || value === undefined ? '' : String(value));
    }
  }
}

function setValue(win: Window & typeof globalThis, control: Control, value: string): void {
  const proto =
    control.tagName === 'SELECT'
      ? (win as any).HTMLSelectElement.prototype
      : control.tagName === 'TEXTAREA'
        ? (win as any).HTMLTextAreaElement.prototype
        : (win as any).HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(control, value);
  control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

function setChecked(win: Window & typeof globalThis, control: HTMLInputElement, checked: boolean): void {
  if (control.checked === checked) return;
  Object.getOwnPropertyDescriptor((win as any).HTMLInputElement.prototype, 'checked')?.set?.call(control, checked);
  control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
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

function validationMessages(win: Window & typeof globalThis, form: HTMLFormElement): string {
  return Array.from(form.elements)
    .filter((e): e is HTMLInputElement => e instanceof win.HTMLInputElement && e.willValidate && !e.validity.valid)
    .map((e) => `${e.name || '(unnamed)'}: ${e.validationMessage}`)
    .join('. ');
}

/** SubmitEvent.agentInvoked and respondWith(), when the browser has neither. */
function installSubmitEventMembers(
  win: Window & typeof globalThis,
  agentEvents: WeakSet<Event>,
  responses: WeakMap<Event, Promise<unknown>>,
): void {
  const proto = (win as any).SubmitEvent?.prototype;
  if (!proto) return;
  if (!('agentInvoked' in proto)) {
    Object.defineProperty(proto, 'agentInvoked', {
      configurable: true,
      enumerable: true,
      get(this: Event) {
        return agentEvents.has(this);
      },
    });
  }
  if (!('respondWith' in proto)) {
    Object.defineProperty(proto, 'respondWith', {
      configurable: true,
      writable: true,
      value(this: Event, response: unknown) {
        if (!agentEvents.has(this))
          throw new DOMException('respondWith() is only available during an agent-invoked submit', 'InvalidStateError');
        if (!this.defaultPrevented) throw new DOMException('respondWith() requires preventDefault()', 'InvalidStateError');
        responses.set(this, Promise.resolve(response));
      },
    });
  }
}
