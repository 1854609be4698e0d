import { describe, expect, it } from 'vitest';
import { agentAtPath } from './agent-at-path';
import type { WebAgent } from './types';

const payments: WebAgent = { id: 'payments', name: 'Payments', tools: ['pay'] };
const checkout: WebAgent = { id: 'checkout', name: 'Checkout', tools: ['get_cart', 'check_out'], subAgents: [payments] };
const site: WebAgent = { id: 'shop', tools: ['search'], subAgents: [checkout] };

describe('agentAtPath', () => {
  it('is the site agent for an empty path, also when there is none', () => {
    expect(agentAtPath(site, [])).toEqual({ agent: site });
    expect(agentAtPath(undefined, [])).toEqual({ agent: undefined });
  });

  it('walks the sub-agents by id', () => {
    expect(agentAtPath(site, ['checkout'])?.agent).toBe(checkout);
    expect(agentAtPath(site, ['checkout', 'payments'])?.agent).toBe(payments);
  });

  it('reaches nothing for an id that is not a sub-agent of the agent above it', () => {
    expect(agentAtPath(site, ['payments'])).toBeUndefined();
    expect(agentAtPath(site, ['checkout', 'checkout'])).toBeUndefined();
    expect(agentAtPath(undefined, ['checkout'])).toBeUndefined();
    expect(agentAtPath(site, [42 as unknown as string])).toBeUndefined();
  });

  it('reaches nothing deeper than delegation nests', () => {
    const deep: WebAgent = { id: 'a', subAgents: [{ id: 'b', subAgents: [{ id: 'c', subAgents: [{ id: 'd' }] }] }] };
    expect(agentAtPath(deep, ['b', 'c'])?.agent?.id).toBe('c');
    expect(agentAtPath(deep, ['b', 'c', 'd'])).toBeUndefined();
  });
});
