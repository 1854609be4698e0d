import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkParameters } from './check-parameters';

const withInput = (inputSchema: Record<string, unknown>, patch = {}) => checkParameters({ tools: [panelTool({ inputSchema, ...patch })] });

describe('checkParameters', () => {
  it('finds nothing when every parameter, nested ones and $refs included, is described and short', () => {
    expect(
      withInput({
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for.' },
          lines: {
            type: 'array',
            description: 'Order lines.',
            items: { type: 'object', properties: { sku: { type: 'string', description: 'The item code.' } } },
          },
          address: { $ref: '#/$defs/address' },
        },
        $defs: {
          address: { type: 'object', description: 'Where to ship.', properties: { city: { type: 'string', description: 'City.' } } },
        },
      }),
    ).toEqual([]);
  });

  it('lists the parameters without a description in one finding per tool', () => {
    const findings = withInput({
      type: 'object',
      properties: { query: { type: 'string' }, page: { type: 'integer' }, sort: { type: 'string', description: 'Order.' } },
    });
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'parameter/no-description',
        severity: 'warning',
        field: 'inputSchema.properties (query, page)',
        message: '2 parameters have no description: query, page.',
      }),
    ]);
    const [one] = withInput({ type: 'object', properties: { email: { type: 'string' } } }, { declarative: true });
    expect(one).toMatchObject({ field: 'inputSchema.properties.email', message: 'The parameter email has no description.' });
    expect(one.fix).toContain('toolparamdescription');
  });

  it('flags descriptions over 150 characters and names over 30', () => {
    const findings = withInput({
      type: 'object',
      properties: {
        note: { type: 'string', description: 'x'.repeat(151) },
        the_name_of_the_person_who_receives_it: { type: 'string', description: 'Who gets it.' },
      },
    });
    expect(findings.map((f) => [f.rule, f.field])).toEqual([
      ['parameter/description-too-long', 'inputSchema.properties.note.description'],
      ['parameter/name-too-long', 'inputSchema.properties.the_name_of_the_person_who_receives_it'],
    ]);
  });
});
