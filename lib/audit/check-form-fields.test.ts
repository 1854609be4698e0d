import { describe, expect, it } from 'vitest';
import type { FrameForms } from './audit-types';
import { checkFormFields } from './check-form-fields';

const forms = (fields: FrameForms['forms'][number]['fields'], toolname: string | null = 'send_message'): FrameForms[] => [
  {
    frameId: 2,
    origin: 'https://help.example',
    forms: [{ label: '#contact', ...(toolname ? { toolname } : {}), hasDescription: true, autosubmit: false, fields }],
  },
];

describe('checkFormFields', () => {
  it('finds nothing when every field of a tool form is named, or in forms that are no tool', () => {
    expect(
      checkFormFields({ tools: [], forms: forms([{ name: 'message', type: 'textarea', label: 'Message', described: true }]) }),
    ).toEqual([]);
    expect(checkFormFields({ tools: [], forms: forms([{ name: '', type: 'text', label: '', described: false }], null) })).toEqual([]);
  });

  it('flags each unnamed field of a tool form, saying which', () => {
    const findings = checkFormFields({
      tools: [],
      forms: forms([
        { name: 'message', type: 'textarea', label: 'Message', described: true },
        { name: '', type: 'tel', label: 'Phone', described: false },
      ]),
    });
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'form/field-unnamed',
        severity: 'warning',
        tool: 'send_message',
        field: '#contact, field 2 (“Phone”)',
        frameId: 2,
        message: 'The tel field 2 (“Phone”) of the form #contact has no name.',
      }),
    ]);
  });
});
