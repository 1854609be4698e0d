import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkOutputSchemas } from './check-output-schemas';

describe('checkOutputSchemas', () => {
  it('finds nothing without an output schema, or with a valid one (any type at the top)', () => {
    expect(checkOutputSchemas({ tools: [panelTool()] })).toEqual([]);
    expect(checkOutputSchemas({ tools: [panelTool({ outputSchema: { type: 'array', items: { type: 'string' } } })] })).toEqual([]);
  });

  it('reports output schema problems under output-schema/…', () => {
    const tool = panelTool({
      outputSchema: { type: 'object', properties: { total: { type: 'money' } }, required: ['total', 'currency'] },
    });
    expect(checkOutputSchemas({ tools: [tool] }).map((f) => [f.rule, f.field, f.severity])).toEqual([
      ['output-schema/required-unknown', 'outputSchema.required', 'error'],
      ['output-schema/type-unknown', 'outputSchema.properties.total.type', 'error'],
    ]);
  });
});
