import { describe, expect, it } from 'vitest';
import { inPageOrder } from './in-page-order';
import type { ToolDescriptor } from '../agent/types';

const tool = (name: string): ToolDescriptor => ({ name, description: name, inputSchema: { type: 'object' } });

describe('inPageOrder', () => {
  it('keeps the chosen tools but puts them in the page’s order, whatever the ranking said', () => {
    const page = ['search', 'add_to_cart', 'checkout', 'help'].map(tool);
    const ranked = [page[2], page[0], page[1]];
    expect(inPageOrder(ranked, page).map((t) => t.name)).toEqual(['search', 'add_to_cart', 'checkout']);
    // A different ranking of the same choice gives the same prompt.
    expect(inPageOrder([page[1], page[2], page[0]], page)).toEqual(inPageOrder(ranked, page));
  });

  it('puts a tool the page no longer lists last, and never drops or duplicates one', () => {
    const page = ['a', 'b'].map(tool);
    const gone = tool('gone');
    expect(inPageOrder([gone, page[1], page[0]], page).map((t) => t.name)).toEqual(['a', 'b', 'gone']);
  });
});
