/**
 * Declarative WebMCP for the polyfill, its lifecycle: every `<form toolname tooldescription>` in the document
 * becomes a tool of the given context (described by describe-form.ts), kept in step with the DOM (forms added,
 * removed or edited). Calling one fills it (fill-form.ts: every value checked first, as native Chromium 156 does,
 * docs/webmcp-conformance.md), then:
 * - with `toolautosubmit`: submits it (requestSubmit, so validation and submit handlers run);
 * - without: focuses its submit control and waits for the person to submit it.
 * The submit event then says `agentInvoked`; a handler that calls preventDefault() and `respondWith(promise)`
 * while the event is dispatched supplies the result. preventDefault() without respondWith() rejects the call, as
 * native does; a submission nobody prevented (or one the page makes with `form.submit()`) navigates: the call
 * resolves as navigated (null). From the fill until the call ends, the form carries `data-tool-form-active` and
 * its submit control `data-tool-submit-active`, which the page's selectors and style sheets read in place of
 * native's `:tool-form-active` and `:tool-submit-active` (install-tool-pseudo-classes.ts).
 *
 * Chromium's native implementation does all this itself; this file only runs when there is none.
 */
import { submitEventState } from './define-submit-event-members';
import { declarativeFormTools } from './declarative-form-tools';
import { describeForm } from './describe-form';
import { fillForm } from './fill-form';
import { formsTouchedBy } from './forms-touched-by';
import type { PolyfillModelContext } from './install-model-context-polyfill';
import { installToolPseudoClasses } from './install-tool-pseudo-classes';
import { FORM_ACTIVE_ATTRIBUTE, SUBMIT_ACTIVE_ATTRIBUTE } from './rewrite-tool-pseudo-classes';
import { NAVIGATED } from './serialize-tool-result';

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
  const named = declarativeFormTools(win);
  /** Mirrors the page's rules that use the pseudo-classes; set once the document has a tool form. */
  let mirrorStyles: (() => void) | undefined;

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
      mirrorStyles ??= installToolPseudoClasses(win);
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
        .then(() => {
          if (controller.signal.aborted) return;
          named.set(definition.name, form);
          controller.signal.addEventListener('abort', () => named.delete(definition.name, form), { once: true });
        })
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
      mirrorStyles?.();
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
