import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkDescriptions } from './check-descriptions';

const rules = (description: string, patch = {}) => checkDescriptions({ tools: [panelTool({ description, ...patch })] }).map((f) => f.rule);

describe('checkDescriptions', () => {
  it('finds nothing in a description that says what the tool does and when', () => {
    expect(rules('Search the catalog by words. Returns matching products with their price.')).toEqual([]);
  });

  it('flags a missing description as an error, with a fix for forms', () => {
    expect(rules('   ')).toEqual(['description/missing']);
    const [finding] = checkDescriptions({ tools: [panelTool({ description: '', declarative: true })] });
    expect(finding.severity).toBe('error');
    expect(finding.fix).toContain('tooldescription');
  });

  it('flags a one-word description, and one that only repeats the name', () => {
    expect(rules('Search.')).toEqual(['description/one-word']);
    expect(rules('Search products', { name: 'search_products' })).toEqual(['description/repeats-name']);
  });

  it('flags a description over Chrome’s 500-character budget', () => {
    const findings = checkDescriptions({ tools: [panelTool({ description: `Search the catalog. ${'More words. '.repeat(45)}` })] });
    expect(findings.map((f) => f.rule)).toEqual(['description/too-long']);
    expect(findings[0].message).toMatch(/^The description is 5\d\d characters long; Chrome's budget is 500\.$/);
  });
});
