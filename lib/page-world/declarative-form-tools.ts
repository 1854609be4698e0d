/**
 * Which of a window's tools are declarative forms, by the polyfill's own record (install-declarative-forms.ts):
 * a name is here once the polyfill registered that form's tool under it, and gone when that registration ends. A
 * page's `<form toolname>` that lost its name to an imperative tool, or never had a description, is not here. The
 * agent trusts this, not the DOM, to say that a call waits for the person (serve-page-tools.ts lists it).
 */

interface FormTools {
  forms: Map<string, HTMLFormElement>;
  listeners: Set<() => void>;
}

const BY_WINDOW = new WeakMap<Window, FormTools>();

function of(win: Window): FormTools {
  const known = BY_WINDOW.get(win);
  if (known) return known;
  const state: FormTools = { forms: new Map(), listeners: new Set() };
  BY_WINDOW.set(win, state);
  return state;
}

/** The window's record: `set` and `delete` by the polyfill's forms, `get` and `onChange` for what lists tools. */
export function declarativeFormTools(win: Window) {
  const state = of(win);
  const changed = () => {
    for (const listener of state.listeners) listener();
  };
  return {
    get: (name: string): HTMLFormElement | undefined => state.forms.get(name),
    set(name: string, form: HTMLFormElement): void {
      state.forms.set(name, form);
      changed();
    },
    /** Forgets `name` if `form` still holds it. */
    delete(name: string, form: HTMLFormElement): void {
      if (state.forms.get(name) !== form) return;
      state.forms.delete(name);
      changed();
    },
    /** Calls `listener` whenever the record changes (a tool already listed may have become a form's, or stopped). */
    onChange(listener: () => void): void {
      state.listeners.add(listener);
    },
  };
}
