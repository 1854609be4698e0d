import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkReadOnlyHint } from './check-read-only-hint';

const messages = (patch: Parameters<typeof panelTool>[0]) => checkReadOnlyHint({ tools: [panelTool(patch)] }).map((f) => f.message);

describe('checkReadOnlyHint', () => {
  it('finds nothing in read-only tools that read, open or search, or in tools not marked read-only', () => {
    expect(messages({})).toEqual([]);
    expect(
      messages({ name: 'open_product', description: 'Open a product’s page. It shows the details, and makes add_to_cart available.' }),
    ).toEqual([]);
    expect(messages({ name: 'delete_item', description: 'Deletes an item.', annotations: {} })).toEqual([]);
  });

  it('flags readOnlyHint on a tool whose name, description or action says it changes something', () => {
    expect(messages({ name: 'add_to_wishlist', description: 'Keeps the product for later.' })).toEqual([
      'It is marked readOnlyHint, but it looks like it changes something (the name add_to_wishlist).',
    ]);
    expect(messages({ name: 'wishlist', description: 'Saves the product for later.' })).toEqual([
      'It is marked readOnlyHint, but it looks like it changes something (“save” in the description).',
    ]);
    expect(messages({ name: 'mark_as_read', description: 'Marks the message as read.' })).toEqual([
      'It is marked readOnlyHint, but it looks like it changes something (the name mark_as_read).',
    ]);
    expect(messages({ name: 'visit', description: 'Records a visit to the shop.' })).toEqual([
      'It is marked readOnlyHint, but it looks like it changes something (“record” in the description).',
    ]);
    expect(messages({ name: 'finish', description: 'This buys the items.' })).toEqual([
      'It is marked readOnlyHint, but it looks like it changes something (“buys” in the description).',
    ]);
  });
});
