import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkResultSize } from './check-result-size';

describe('checkResultSize', () => {
  it('finds nothing in results within the budget, or without results', () => {
    expect(checkResultSize({ tools: [panelTool()] })).toEqual([]);
    expect(
      checkResultSize({
        tools: [panelTool()],
        results: [{ tool: 'search_products', by: 'person', output: 'x'.repeat(1500), truncated: false }],
      }),
    ).toEqual([]);
  });

  it('flags the longest result over 1,500 characters, once per tool', () => {
    const findings = checkResultSize({
      tools: [panelTool()],
      results: [
        { tool: 'search_products', by: 'person', output: 'x'.repeat(1600), truncated: false },
        { tool: 'search_products', by: 'agent', output: 'x'.repeat(4000), truncated: true },
      ],
    });
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'result/too-long',
        severity: 'warning',
        tool: 'search_products',
        message: "A result of an agent’s call was over 4000 characters long; Chrome's budget is 1500.",
      }),
    ]);
  });
});
