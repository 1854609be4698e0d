/**
 * The cursor during a call (create-frame-tool-host.ts): over a declarative form's fields to its submit control, or
 * to whatever an imperative tool changed. What it points at is the page's; it draws in its own closed overlay.
 */
import type { ToolCursor } from './create-tool-cursor';

/**
 * Walks the cursor over a declarative form's fields that the call fills, then its submit control; on the way out it
 * parks on the submit control when the person must press it. Returns the function that stops it.
 */
export function pointAtForm(
  win: Window & typeof globalThis,
  cursor: ToolCursor,
  form: HTMLFormElement,
  input: Record<string, unknown>,
  label: string,
  park: boolean,
): () => void {
  const steps: Element[] = [];
  for (const key of Object.keys(input)) {
    const field: unknown = form.elements.namedItem(key);
    const element = field instanceof win.RadioNodeList ? field[0] : field;
    if (element instanceof win.Element) steps.push(element);
  }
  const submit = findSubmit(form);
  if (submit) steps.push(submit);
  let i = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const next = () => {
    if (i < steps.length) cursor.moveTo(steps[i++], label);
    if (i < steps.length) timer = setTimeout(next, 450);
  };
  timer = setTimeout(next, 0);
  return () => {
    clearTimeout(timer);
    if (park && submit) cursor.moveTo(submit, label);
  };
}

/**
 * Moves the cursor to what an imperative tool changes (the last element mutated, its own overlay excepted), at most
 * once a frame. Returns the function that stops watching and leaves the cursor on the last change.
 */
export function followMutations(win: Window & typeof globalThis, doc: Document, cursor: ToolCursor, label: string): () => void {
  let pending: Element | undefined;
  let frame: ReturnType<typeof setTimeout> | undefined;
  const observer = new win.MutationObserver((records: MutationRecord[]) => {
    for (const record of records) {
      const target = record.target.nodeType === 1 ? (record.target as Element) : record.target.parentElement;
      if (!target || target === cursor.host || target.tagName === 'WEBMCP-AGENT-CURSOR') continue;
      if (target === doc.body || target === doc.documentElement) {
        const added = Array.from(record.addedNodes).find(
          (n: Node): n is Element => n.nodeType === 1 && (n as Element).tagName !== 'WEBMCP-AGENT-CURSOR',
        );
        if (!added) continue;
        pending = added;
      } else pending = target;
    }
    if (pending && frame === undefined) {
      frame = setTimeout(() => {
        frame = undefined;
        if (pending?.isConnected) cursor.moveTo(pending, label);
      }, 16);
    }
  });
  observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  return () => {
    observer.disconnect();
    clearTimeout(frame);
    if (pending?.isConnected) cursor.moveTo(pending, label);
  };
}

/** A form's submit control: the button or input that submits it. */
function findSubmit(form: HTMLFormElement): HTMLElement | undefined {
  return (form.querySelector('button[type="submit"], button:not([type]), input[type="submit"], input[type="image"]') ?? undefined) as
    | HTMLElement
    | undefined;
}
