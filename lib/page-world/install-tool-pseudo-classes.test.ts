import { describe, expect, it } from 'vitest';
import { installToolPseudoClasses } from './install-tool-pseudo-classes';

const FORM = '[data-tool-form-active]:where(:root *)';

/** A window whose selector methods answer with the selector they were given (and refuse `!`, as a parser would). */
function fakeWindow() {
  const echo = (selector: string) => {
    if (String(selector).includes('!')) throw new SyntaxError(`'${selector}' is not a valid selector.`);
    return selector;
  };
  class Element {}
  class Document {}
  class DocumentFragment {}
  class CSSStyleSheet {}
  for (const proto of [Element.prototype, Document.prototype, DocumentFragment.prototype]) {
    for (const name of ['querySelector', 'querySelectorAll'])
      Object.defineProperty(proto, name, { value: echo, writable: true, enumerable: true, configurable: true });
  }
  for (const name of ['matches', 'closest'])
    Object.defineProperty(Element.prototype, name, { value: echo, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(CSSStyleSheet.prototype, 'insertRule', { value: echo, writable: true, enumerable: true, configurable: true });
  const CSS = { supports: (...args: string[]) => args.join(' ') };
  const document = { querySelectorAll: () => [] };
  const MutationObserver = class {
    observe() {}
  };
  return { Element, Document, DocumentFragment, CSSStyleSheet, CSS, document, MutationObserver } as unknown as Window & typeof globalThis;
}

describe('installToolPseudoClasses', () => {
  it('hands the selector methods the pseudo-classes as the marks, once per window', () => {
    const win = fakeWindow();
    expect(installToolPseudoClasses(win)).toBe(installToolPseudoClasses(win));
    const element = new win.Element() as unknown as Record<string, (...args: unknown[]) => unknown>;
    expect(element.matches(':tool-form-active')).toBe(FORM);
    expect(element.closest('form:tool-form-active')).toBe(`form${FORM}`);
    expect((new win.Document() as unknown as Record<string, (s: string) => unknown>).querySelectorAll(':tool-submit-active')).toBe(
      '[data-tool-submit-active]:where(:root *)',
    );
    expect((new win.CSSStyleSheet() as unknown as Record<string, (s: string) => unknown>).insertRule(':tool-form-active {}')).toBe(
      '[data-tool-form-active] {}',
    );
    expect(win.CSS.supports('selector(:tool-form-active)')).toBe('selector([data-tool-form-active])');
    // Two arguments are a property and a value, not a condition.
    expect((win.CSS.supports as unknown as (...a: string[]) => string)('--x', ':tool-form-active')).toBe('--x :tool-form-active');
    expect(element.matches('form')).toBe('form');
  });

  it('keeps the methods’ names, lengths and attributes, and the page’s own text in an error', () => {
    const win = fakeWindow();
    installToolPseudoClasses(win);
    const matches = Object.getOwnPropertyDescriptor(win.Element.prototype, 'matches');
    expect([matches?.value.name, matches?.value.length, matches?.enumerable, matches?.writable]).toEqual(['matches', 1, true, true]);
    const element = new win.Element() as unknown as Record<string, (...args: unknown[]) => unknown>;
    expect(() => element.matches(':tool-form-active!')).toThrow("':tool-form-active!' is not a valid selector.");
  });
});
