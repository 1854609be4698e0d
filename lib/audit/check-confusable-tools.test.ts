import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkConfusableTools } from './check-confusable-tools';

const shop = [
  panelTool({ name: 'search_products', title: 'Search products', description: 'Search the catalog by words. Returns products.' }),
  panelTool({ name: 'get_cart', title: 'Read the cart', description: 'Read the cart: its lines and the subtotal.' }),
  panelTool({ name: 'check_out', title: 'Check out', description: 'Place the order for everything in the cart.' }),
];

describe('checkConfusableTools', () => {
  it('finds nothing when each tool’s own request ranks it first', () => {
    expect(checkConfusableTools({ tools: shop })).toEqual([]);
    expect(checkConfusableTools({ tools: [shop[0]] })).toEqual([]);
  });

  it('flags a pair the ranker cannot tell apart for one of their own requests, once', () => {
    const tools = [...shop, panelTool({ name: 'find_items', description: 'Search the catalog by words. Returns products.' })];
    const findings = checkConfusableTools({ tools });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'ranking/confusable', severity: 'warning', tool: 'find_items' });
    expect(findings[0].message).toBe(
      'For “Search the catalog by words.” (its description’s first sentence), the on-device ranker scores search_products higher than find_items.',
    );
  });

  it('checks eval requests too, and says when the ranker would not show the expected tool at all', () => {
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
    const many = words.map((word) => panelTool({ name: `${word}_cart`, title: `${word} cart`, description: `Fills the ${word} cart.` }));
    // "hamper" is no synonym of "cart" (lib/agent/task-synonyms.ts): nothing in the request's words leads to it.
    const tools = [...many, panelTool({ name: 'read_hamper', title: 'Read the hamper', description: 'Reads the hamper.' })];
    const findings = checkConfusableTools({
      tools,
      examples: [{ tool: 'read_hamper', request: 'What is in my cart?', source: 'eval case “Read the cart”' }],
    });
    expect(findings.map((f) => f.rule)).toEqual(['ranking/example-unseen']);
    expect(findings[0].message).toBe(
      'For “What is in my cart?” (eval case “Read the cart”), the on-device ranker puts 10 tools ahead of read_hamper: the model is shown only 8.',
    );
  });
});
