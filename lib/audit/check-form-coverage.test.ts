import { describe, expect, it } from 'vitest';
import type { FrameForms, ScannedForm } from './audit-types';
import { checkFormCoverage } from './check-form-coverage';

const field = { name: 'q', type: 'text', label: 'Search', described: true };
const frame = (...forms: ScannedForm[]): FrameForms[] => [{ frameId: 0, origin: 'https://shop.example', forms }];

describe('checkFormCoverage', () => {
  it('finds nothing for declarative tools with a description, forms without fields, or no scan', () => {
    expect(checkFormCoverage({ tools: [] })).toEqual([]);
    expect(
      checkFormCoverage({
        tools: [],
        forms: frame(
          { label: '#news', toolname: 'subscribe', hasDescription: true, autosubmit: false, fields: [field] },
          { label: 'form 2', hasDescription: false, autosubmit: false, fields: [{ ...field, name: '' }] },
        ),
      }),
    ).toEqual([]);
  });

  it('notes a form with fields that is no tool', () => {
    expect(
      checkFormCoverage({ tools: [], forms: frame({ label: '#search', hasDescription: false, autosubmit: false, fields: [field] }) }),
    ).toEqual([
      expect.objectContaining({
        rule: 'form/not-a-tool',
        severity: 'info',
        field: '#search',
        frameId: 0,
        origin: 'https://shop.example',
        message: 'The form #search (1 field) is not a WebMCP tool.',
      }),
    ]);
  });

  it('flags a form with a toolname but no tooldescription', () => {
    const [finding] = checkFormCoverage({
      tools: [],
      forms: frame({ label: '#contact', toolname: 'contact', hasDescription: false, autosubmit: false, fields: [field] }),
    });
    expect(finding).toMatchObject({ rule: 'form/no-description', severity: 'error', tool: 'contact', field: '#contact tooldescription' });
  });
});
