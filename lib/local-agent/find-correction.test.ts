import { describe, expect, it } from 'vitest';
import { echoesResult, findCorrection, isActionRequest, toolPointedAt } from './find-correction';
import type { ToolDescriptor } from '../agent/types';

const tools: ToolDescriptor[] = [
  { name: 'add_to_cart', title: 'Add to cart', description: 'Add a product.', inputSchema: {} },
  { name: 'search_products', description: 'Search.', inputSchema: {} },
];

describe('findCorrection', () => {
  const base = { request: 'add p7 to my cart', tools, results: [] as string[] };

  it('catches a reply that ignores the last failure', () => {
    expect(findCorrection({ ...base, text: 'Done! It is in your cart.', lastFailure: 'Error [tool_threw]: no stock' })).toEqual({
      kind: 'ignored-failure',
    });
    expect(findCorrection({ ...base, text: 'Sorry, that failed: no stock.', lastFailure: 'Error: x' })).toBeUndefined();
    expect(
      findCorrection({ ...base, text: 'Please submit the form on the page.', lastFailure: 'Error [awaiting_confirmation]: x' }),
    ).toBeUndefined();
  });

  it('catches a reply that hands the person a tool the model has', () => {
    expect(findCorrection({ ...base, text: 'You can click **Add to Cart** on the page.' })).toEqual({
      kind: 'do-it-yourself',
      tool: 'add_to_cart',
    });
    expect(findCorrection({ ...base, text: 'Use the search_products tool to find it.' })).toEqual({
      kind: 'do-it-yourself',
      tool: 'search_products',
    });
    expect(findCorrection({ ...base, request: 'How do I add to cart?', text: 'Click Add to cart.' })).toBeUndefined();
  });

  it('catches an echo of a result', () => {
    const result = '{"items": [{"name": "Blue shoe", "price": 30}], "total": 30}';
    expect(findCorrection({ ...base, text: result, results: [result] })).toEqual({ kind: 'echo' });
    expect(findCorrection({ ...base, text: 'Your cart has the Blue shoe, 30 in total.', results: [result] })).toBeUndefined();
  });
});

describe('helpers', () => {
  it('tells actions from questions', () => {
    expect(isActionRequest('Book a table for two')).toBe(true);
    expect(isActionRequest('Can you show me the cart')).toBe(true);
    expect(isActionRequest('What is in my cart')).toBe(false);
    expect(isActionRequest('cart?')).toBe(false);
  });

  it('finds the tool a reply points at', () => {
    expect(toolPointedAt('Press the "add to cart" button.', tools)).toBe('add_to_cart');
    expect(toolPointedAt('Add to cart worked.', tools)).toBeUndefined();
  });

  it('sees framing around an echoed result', () => {
    const result = 'Blue shoe, size Large, 30 EUR, in stock, ships tomorrow';
    expect(echoesResult(`Result of search_products: ${result}`, [result])).toBe(true);
    expect(echoesResult('ok', [result])).toBe(false);
  });
});
