import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkToolNames } from './check-tool-names';

describe('checkToolNames', () => {
  it('finds nothing in a short name the model sees unchanged', () => {
    expect(checkToolNames({ tools: [panelTool(), panelTool({ name: 'get_cart', originalName: 'get_cart' })] })).toEqual([]);
  });

  it('flags a name over Chrome’s 30-character budget', () => {
    const tool = panelTool({ name: 'search_the_whole_product_catalog_by_words' });
    expect(checkToolNames({ tools: [tool] })).toEqual([
      expect.objectContaining({
        rule: 'name/too-long',
        severity: 'warning',
        tool: 'search_the_whole_product_catalog_by_words',
        field: 'name',
      }),
    ]);
  });

  it('says when the model sees another name, and why', () => {
    const [renamed] = checkToolNames({ tools: [panelTool({ name: 'cart_add', originalName: 'cart.add' })] });
    expect(renamed).toMatchObject({ rule: 'name/renamed', severity: 'info', tool: 'cart.add' });
    expect(renamed.message).toContain('the model sees it as cart_add');
    const [clash] = checkToolNames({ tools: [panelTool({ name: 'search_2', originalName: 'search', frameId: 3 })] });
    expect(clash.message).toContain('Another tool on this page is also called search');
  });
});
