import { describe, expect, it } from 'vitest';
import { looksConsequential } from './looks-consequential';

const tool = (name: string, description = 'Does something.') => ({ name, description, inputSchema: {} });

describe('looksConsequential', () => {
  it('reads the action from the name', () => {
    expect(looksConsequential(tool('check_out'))).toBe('the name check_out');
    expect(looksConsequential(tool('placeOrder'))).toBe('the name placeOrder');
    expect(looksConsequential(tool('delete_account'))).toBe('the name delete_account');
    expect(looksConsequential(tool('book_table'))).toBe('the name book_table');
    expect(looksConsequential(tool('send_message'))).toBe('the name send_message');
  });

  it('reads it from the description', () => {
    expect(looksConsequential(tool('finish', 'Places the order for everything in the cart.'))).toBe(
      '“places the order” in the description',
    );
    expect(looksConsequential(tool('go', 'Books a table for tonight.'))).toBe('“book” in the description');
    expect(looksConsequential(tool('confirm', 'Confirm the cart. This buys the items.'))).toBe('“buys” in the description');
    expect(looksConsequential(tool('contact', 'Sends a message to the shop.'))).toBe('“send” in the description');
  });

  it('leaves tools that read, search or fill a cart alone, nouns included', () => {
    expect(looksConsequential(tool('search_books', 'Search the books by title.'))).toBeUndefined();
    expect(looksConsequential(tool('get_order_status', 'Returns where an order is.'))).toBeUndefined();
    expect(looksConsequential(tool('add_to_cart', 'Add the product to the cart.'))).toBeUndefined();
    expect(looksConsequential(tool('subscribe_newsletter', 'Subscribe an email address to the newsletter.'))).toBeUndefined();
    expect(looksConsequential(tool('get_checkout_url', 'Returns the address of the checkout page.'))).toBeUndefined();
    expect(looksConsequential(tool('list_payments', 'Lists the payments of the account.'))).toBeUndefined();
  });
});
