import { describe, expect, it } from 'vitest';
import { fakeProtocolAnnotations } from '../../tests/fixtures/fake-chrome-tool';
import { readAnnotationFlags } from './read-annotation-flags';

describe('readAnnotationFlags', () => {
  it('reads the names pages register with', () => {
    expect(readAnnotationFlags({ readOnlyHint: true, untrustedContentHint: false, consequentialHint: true, debugging: false })).toEqual({
      annotations: { readOnlyHint: true, untrustedContentHint: false, consequentialHint: true, debugging: false },
    });
  });

  it("reads the DevTools protocol's names, as getters on an interface object, and autosubmit apart from the hints", () => {
    expect(
      readAnnotationFlags(
        fakeProtocolAnnotations({ readOnly: true, untrustedContent: true, consequential: false, debugging: true, autosubmit: false }),
      ),
    ).toEqual({
      annotations: { readOnlyHint: true, untrustedContentHint: true, consequentialHint: false, debugging: true },
      autosubmit: false,
    });
  });

  it('takes the careful reading when the two names of a hint disagree', () => {
    expect(readAnnotationFlags({ readOnlyHint: true, readOnly: false }).annotations).toEqual({ readOnlyHint: false });
    expect(readAnnotationFlags({ readOnlyHint: false, readOnly: true }).annotations).toEqual({ readOnlyHint: false });
    expect(readAnnotationFlags({ untrustedContentHint: false, untrustedContent: true }).annotations).toEqual({
      untrustedContentHint: true,
    });
    expect(readAnnotationFlags({ consequentialHint: false, consequential: true }).annotations).toEqual({ consequentialHint: true });
  });

  it('counts only booleans, survives hostile getters, and is empty for anything that is not an object', () => {
    const hostile = Object.defineProperty({ readOnly: true }, 'consequential', {
      get() {
        throw new Error('gotcha');
      },
    });
    expect(readAnnotationFlags(hostile)).toEqual({ annotations: { readOnlyHint: true } });
    expect(readAnnotationFlags({ readOnly: 'yes', autosubmit: 1 })).toEqual({});
    for (const value of [null, undefined, true, 'readOnly']) expect(readAnnotationFlags(value)).toEqual({});
  });
});
