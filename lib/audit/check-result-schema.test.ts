import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkResultSchema } from './check-result-schema';

const tool = panelTool({
  name: 'get_cart',
  outputSchema: { type: 'object', properties: { items: { type: 'array' }, total: { type: 'number' } }, required: ['items', 'total'] },
});
const result = (output: string, truncated = false) => ({ tool: 'get_cart', by: 'person' as const, output, truncated });

describe('checkResultSchema', () => {
  it('finds nothing when results match the outputSchema, or a tool declares none', () => {
    expect(checkResultSchema({ tools: [tool], results: [result('{"items":[],"total":0}')] })).toEqual([]);
    expect(
      checkResultSchema({ tools: [panelTool()], results: [{ tool: 'search_products', by: 'agent', output: 'text', truncated: false }] }),
    ).toEqual([]);
  });

  it('flags a result that does not match, in the validator’s words, once per tool', () => {
    const findings = checkResultSchema({ tools: [tool], results: [result('{"items":[]}'), result('{"total":"0"}')] });
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'result/schema-mismatch',
        severity: 'error',
        tool: 'get_cart',
        message: 'A result of a call by hand does not match the outputSchema: total: required.',
      }),
    ]);
  });

  it('flags a result that is not JSON, and skips one the timeline kept only in part', () => {
    expect(checkResultSchema({ tools: [tool], results: [result('Your cart is empty.')] })[0].message).toBe(
      'A result of a call by hand does not match the outputSchema: the result is not JSON (it begins “Your cart is empty.”).',
    );
    expect(checkResultSchema({ tools: [tool], results: [result('{"items":', true)] })).toEqual([]);
  });
});
