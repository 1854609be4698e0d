import { describe, expect, it } from 'vitest';
import { toProviderToolName } from './to-provider-tool-name';

describe('toProviderToolName', () => {
  it('keeps names every provider accepts', () => {
    expect(toProviderToolName('add_to_cart')).toBe('add_to_cart');
    expect(toProviderToolName('Search-Flights2')).toBe('Search-Flights2');
  });

  it('replaces other characters and cuts to 64', () => {
    expect(toProviderToolName('cart.add')).toBe('cart_add');
    expect(toProviderToolName('réserver une table')).toBe('r_server_une_table');
    expect(toProviderToolName('x'.repeat(80))).toHaveLength(64);
    expect(toProviderToolName('...')).toBe('tool');
    expect(toProviderToolName('')).toBe('tool');
  });

  it('adds a suffix on a clash, staying within 64 characters', () => {
    expect(toProviderToolName('cart.add', new Set(['cart_add']))).toBe('cart_add_2');
    expect(toProviderToolName('cart.add', new Set(['cart_add', 'cart_add_2']))).toBe('cart_add_3');
    const long = 'y'.repeat(64);
    const suffixed = toProviderToolName(long, new Set([long]));
    expect(suffixed).toHaveLength(64);
    expect(suffixed.endsWith('_2')).toBe(true);
  });
});
