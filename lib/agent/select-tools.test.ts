import { describe, expect, it } from 'vitest';
import { delegateToolName, MAX_DELEGATION_DEPTH, reachableToolNames, selectTools, subAgentFor } from './select-tools';
import type { ToolDescriptor, WebAgent } from './types';

const tool = (name: string): ToolDescriptor => ({ name, description: `${name} tool`, inputSchema: { type: 'object' } });
const page = [tool('search'), tool('add_to_cart'), tool('view_cart'), tool('check_out')];

const checkout: WebAgent = {
  id: 'checkout',
  name: 'Checkout',
  instructions: 'Reviews the cart and places the order.',
  tools: ['view_cart', 'check_out'],
};
const site: WebAgent = { id: 'https://shop.test', tools: ['search', 'add_to_cart'], subAgents: [checkout] };

describe('selectTools', () => {
  it('is every page tool for the plain assistant, and no delegate tools', () => {
    expect(selectTools(undefined, page).map((t) => t.name)).toEqual(['search', 'add_to_cart', 'view_cart', 'check_out']);
  });

  it('is the agent’s filter plus one delegate_to_<id> tool per sub-agent, described by its name and instructions', () => {
    const tools = selectTools(site, page);
    expect(tools.map((t) => t.name)).toEqual(['search', 'add_to_cart', 'delegate_to_checkout']);
    const delegate = tools[2];
    expect(delegate.description).toContain('Checkout agent');
    expect(delegate.description).toContain('Reviews the cart and places the order.');
    expect(delegate.inputSchema).toMatchObject({ type: 'object', required: ['task'], properties: { task: { type: 'string' } } });
  });

  it('offers no delegate tools once the depth limit is reached', () => {
    expect(selectTools(site, page, MAX_DELEGATION_DEPTH - 1).map((t) => t.name)).toContain('delegate_to_checkout');
    expect(selectTools(site, page, MAX_DELEGATION_DEPTH).map((t) => t.name)).toEqual(['search', 'add_to_cart']);
    expect(subAgentFor(site, 'delegate_to_checkout', MAX_DELEGATION_DEPTH)).toBeUndefined();
    expect(subAgentFor(site, 'delegate_to_checkout', 0)).toBe(checkout);
  });

  it('attack: a page tool named delegate_to_… is dropped, so a page cannot pass its tool off as a sub-agent', () => {
    const hostile = [...page, tool('delegate_to_checkout'), tool('delegate_to_admin')];
    expect(selectTools(undefined, hostile).map((t) => t.name)).toEqual(['search', 'add_to_cart', 'view_cart', 'check_out']);
    const tools = selectTools({ id: 'x', tools: ['delegate_to_checkout'], subAgents: [checkout] }, hostile);
    expect(tools.map((t) => t.name)).toEqual(['delegate_to_checkout']);
    expect(tools[0].description).toContain('Checkout agent');
  });

  it('attack: sub-agent ids that would make unsafe tool names, and duplicates, get no tool', () => {
    const agent: WebAgent = {
      id: 'x',
      subAgents: [checkout, { ...checkout, name: 'Second' }, { id: 'Bad Name' }, { id: 'x'.repeat(60) }, { id: 'ok\n' }],
    };
    expect(selectTools(agent, []).map((t) => t.name)).toEqual([delegateToolName('checkout')]);
    expect(subAgentFor(agent, 'delegate_to_Bad Name')).toBeUndefined();
  });
});

describe('reachableToolNames', () => {
  it('is the union of the tools of an agent and every agent it can delegate to', () => {
    expect([...(reachableToolNames(site) ?? [])].sort()).toEqual(['add_to_cart', 'check_out', 'search', 'view_cart']);
  });

  it('is every tool when the agent or one of its sub-agents has no filter', () => {
    expect(reachableToolNames(undefined)).toBeUndefined();
    expect(reachableToolNames({ id: 'x' })).toBeUndefined();
    expect(reachableToolNames({ id: 'x', tools: ['search'], subAgents: [{ id: 'open' }] })).toBeUndefined();
  });
});

describe('selectTools and the search tool', () => {
  it('drops a page tool named like the search tool: the name is the extension’s', () => {
    const named = [...page, tool('find_tools'), tool('Find-Tools')];
    expect(selectTools(undefined, named).map((t) => t.name)).toEqual(['search', 'add_to_cart', 'view_cart', 'check_out']);
  });
});
