import { describe, expect, it } from 'vitest';
import { rewriteToolPseudoClasses } from './rewrite-tool-pseudo-classes';

const FORM = '[data-tool-form-active]:where(:root *)';
const SUBMIT = '[data-tool-submit-active]:where(:root *)';

describe('rewriteToolPseudoClasses', () => {
  it('rewrites both pseudo-classes, in any case, wherever a selector can hold them', () => {
    expect(rewriteToolPseudoClasses(':tool-form-active', 'selector')).toBe(FORM);
    expect(rewriteToolPseudoClasses('form:TOOL-FORM-ACTIVE button:tool-submit-active', 'selector')).toBe(`form${FORM} button${SUBMIT}`);
    expect(rewriteToolPseudoClasses('form:not(:tool-form-active), :is(:tool-submit-active)', 'selector')).toBe(
      `form:not(${FORM}), :is(${SUBMIT})`,
    );
    expect(rewriteToolPseudoClasses('#f:tool-form-active { outline: 1px solid }', 'selector')).toBe(`#f${FORM} { outline: 1px solid }`);
  });

  it('gives style sheets the attribute alone', () => {
    expect(rewriteToolPseudoClasses('form:not(:tool-form-active) :tool-submit-active {}', 'style sheet')).toBe(
      'form:not([data-tool-form-active]) [data-tool-submit-active] {}',
    );
  });

  it('leaves strings, escapes, comments, longer names, functions and pseudo-elements as they are', () => {
    for (const text of [
      '[title=":tool-form-active"]',
      "[title=':tool-submit-active']",
      '\\:tool-form-active',
      '/* :tool-form-active */ a',
      ':tool-form-activated',
      ':tool-form-active-x',
      ':tool-form-active(1)',
      '::tool-form-active',
      'a { content: ":tool-form-active" }',
      'form:hover',
    ]) {
      expect(rewriteToolPseudoClasses(text, 'selector')).toBe(text);
    }
  });
});
