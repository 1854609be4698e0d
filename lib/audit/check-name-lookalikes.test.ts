import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkNameLookalikes } from './check-name-lookalikes';

describe('checkNameLookalikes', () => {
  it('finds nothing when names differ in their letters', () => {
    expect(checkNameLookalikes({ tools: [panelTool({ name: 'search_products' }), panelTool({ name: 'search_orders' })] })).toEqual([]);
  });

  it('flags names that differ only in case or punctuation, once per group', () => {
    const findings = checkNameLookalikes({
      tools: [
        panelTool({ name: 'search_products' }),
        panelTool({ name: 'searchProducts' }),
        panelTool({ name: 'Search-Products', frameId: 2 }),
        panelTool({ name: 'get_cart' }),
      ],
    });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'name/lookalike', severity: 'warning', tool: 'search_products' });
    expect(findings[0].message).toBe('search_products, searchProducts, Search-Products (frame 2) differ only in case or punctuation.');
  });
});
