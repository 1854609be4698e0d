import { describe, expect, it } from 'vitest';
import { isToolOffered } from './is-tool-offered';
import type { WebAgent } from './types';

const reviews: WebAgent = { id: 'reviews', name: 'Reviews', tools: ['read_reviews'] };
const checkout: WebAgent = { id: 'checkout', name: 'Checkout', tools: ['check_out'] };
const site: WebAgent = { id: 'shop', tools: ['search'], subAgents: [reviews, checkout] };

describe('isToolOffered', () => {
  it('offers every page tool when no agent narrows them', () => {
    expect(isToolOffered(undefined, [], 'export_addresses')).toBe(true);
    expect(isToolOffered({ id: 'shop' }, [], 'export_addresses')).toBe(true);
  });

  it("offers the site agent only its own list, not its sub-agents' tools nor tools nobody lists", () => {
    expect(isToolOffered(site, [], 'search')).toBe(true);
    expect(isToolOffered(site, [], 'check_out')).toBe(false);
    expect(isToolOffered(site, [], 'read_reviews')).toBe(false);
    expect(isToolOffered(site, [], 'export_addresses')).toBe(false);
  });

  it('offers a sub-agent its own list at its depth, not another sub-agent’s nor its parent’s', () => {
    expect(isToolOffered(site, ['reviews'], 'read_reviews')).toBe(true);
    expect(isToolOffered(site, ['reviews'], 'check_out')).toBe(false);
    expect(isToolOffered(site, ['reviews'], 'search')).toBe(false);
    expect(isToolOffered(site, ['nobody'], 'read_reviews')).toBe(false);
  });

  it('never offers a delegate_to_* name as a page tool', () => {
    expect(isToolOffered(undefined, [], 'delegate_to_checkout')).toBe(false);
    expect(isToolOffered({ id: 'shop', tools: ['delegate_to_checkout'] }, [], 'delegate_to_checkout')).toBe(false);
  });

  it('offers nothing for a name that is not a string', () => {
    expect(isToolOffered(undefined, [], { toString: () => 'search' } as unknown as string)).toBe(false);
  });

  it('never offers the search tool’s name (find_tools) as a page tool: the loop runs the search itself', () => {
    expect(isToolOffered(undefined, [], 'find_tools')).toBe(false);
    expect(isToolOffered({ id: 'shop', tools: ['find_tools'] }, [], 'FIND-tools')).toBe(false);
  });
});
