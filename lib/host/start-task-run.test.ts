import { describe, expect, it } from 'vitest';
import { createToolNames } from '../agent/site-tool-names';
import type { ToolCall, ToolDescriptor, ToolOutput, WebAgent } from '../agent/types';
import { createCallTimeline } from '../call-log/call-timeline';
import type { TaskTab } from '../messaging/task-tabs';
import type { Task } from './create-task';
import { createTaskFlows } from './create-task-flows';
import { startTaskRun } from './start-task-run';
import type { TaskCallRoute } from './tag-task-calls';

const SHOP = 'https://shop.example';
const RECIPES = 'https://recipes.example';
const tool = (name: string): ToolDescriptor => ({ name, description: name, inputSchema: { type: 'object' } });
const ok = (text: string): ToolOutput => ({ content: [{ type: 'text', text }] });
const text = (output: ToolOutput) => (output.content[0]?.type === 'text' ? output.content[0].text : '');

/** A view of one tab: its tools, its page, its site profile. */
const view = (site: string, tools: ToolDescriptor[], agent?: WebAgent) => ({
  forModel: () => tools,
  identity: (name: string) => (tools.some((t) => t.name === name) ? { origin: site, originalName: name } : undefined),
  page: () => ({ url: `${site}/`, title: site }),
  agent: () => agent,
});

/** A run of tab 1 (the shop) in a task with tab 2 (recipes), whose calls are recorded per tab. */
function setup(options: { spans?: boolean; recipesAgent?: WebAgent; recipesSite?: string; ownAgent?: WebAgent } = {}) {
  const ran: [number, ToolCall][] = [];
  let tabs: TaskTab[] = options.spans === false ? [] : [{ tabId: 2, site: RECIPES }];
  const recipes = view(RECIPES, [tool('get_ingredients'), tool('admin_reset')], options.recipesAgent);
  const member = {
    tab: { tabId: 2, site: RECIPES },
    tools: recipes,
    site: () => ('recipesSite' in options ? options.recipesSite : RECIPES),
    calls: {
      callTool: async (call: ToolCall) => {
        ran.push([2, call]);
        return ok(`${call.name} ran in 2`);
      },
    },
  };
  const task = {
    tabs: {
      spans: () => tabs.length > 0,
      list: () => tabs,
      siteOf: () => undefined,
      add: async () => undefined,
      remove: () => {},
      gone: () => {},
    },
    member: (tabId: number) => (tabId === 2 && tabs.length > 0 ? member : undefined),
    members: () => (tabs.length > 0 ? [member] : []),
    endRunQuestions: () => {},
  } as unknown as Task;
  const routes = new Map<string, TaskCallRoute>();
  const timeline = createCallTimeline(() => 0);
  const run = startTaskRun({
    task,
    flows: createTaskFlows(),
    names: createToolNames(),
    routes,
    timeline,
    own: {
      tabId: 1,
      site: SHOP,
      tools: view(SHOP, [tool('add_to_basket')]),
      guard: { onSite: () => true },
      agent: options.ownAgent,
      callTool: async (call) => {
        ran.push([1, call]);
        return ok(`${call.name} ran in 1`);
      },
    },
  });
  return { run, ran, timeline, leave: () => (tabs = []) };
}
const signal = new AbortController().signal;

describe('startTaskRun', () => {
  it('is no run across tabs while the task holds only its own tab', () => {
    expect(setup({ spans: false }).run).toBeUndefined();
  });

  it('offers each tab’s tools as that tab’s own site profile chooses them, and routes each call to its tab under its own name', async () => {
    const { run, ran } = setup({ recipesAgent: { id: 'recipes', tools: ['get_ingredients'] } });
    expect(run?.tools().map((t) => t.name)).toEqual(['shop_example__add_to_basket', 'recipes_example__get_ingredients']);
    await run?.callTool({ id: 'c1', name: 'recipes_example__get_ingredients', input: { dish: 'soup' } }, signal);
    await run?.callTool({ id: 'c2', name: 'shop_example__add_to_basket', input: {} }, signal);
    expect(ran).toEqual([
      [2, { id: 'c1', name: 'get_ingredients', input: { dish: 'soup' } }],
      [1, { id: 'c2', name: 'add_to_basket', input: {} }],
    ]);
  });

  it('refuses a name it did not list, a tool the tab’s profile leaves out, and any call by a sub-agent, before any tab hears of it', async () => {
    const { run, ran, timeline } = setup({ recipesAgent: { id: 'recipes', tools: ['get_ingredients'] } });
    run?.tools();
    const refused = [
      await run!.callTool({ id: 'c1', name: 'get_ingredients', input: {} }, signal),
      await run!.callTool({ id: 'c2', name: 'recipes_example__admin_reset', input: {} }, signal),
      await run!.callTool({ id: 'c3', name: 'recipes_example__get_ingredients', input: {} }, signal, ['helper']),
    ];
    const offered = 'is offered to you. Available tools: shop_example__add_to_basket, recipes_example__get_ingredients.';
    expect(refused.map(text)).toEqual([
      `Error [unknown_tool]: no tool named "get_ingredients" ${offered}`,
      `Error [unknown_tool]: no tool named "recipes_example__admin_reset" ${offered}`,
      `Error [unknown_tool]: no tool named "recipes_example__get_ingredients" ${offered}`,
    ]);
    expect(ran).toEqual([]);
    expect(timeline.entries().map((r) => r.errorCode)).toEqual(['unknown_tool', 'unknown_tool', 'unknown_tool']);
  });

  it('gives the adapter the own site’s instructions without its tool list or sub-agents', () => {
    const ownAgent: WebAgent = { id: 'shop', instructions: 'Be brief.', tools: ['add_to_basket'], subAgents: [{ id: 'helper' }] };
    expect(setup({ ownAgent }).run?.agent).toEqual({ id: 'shop', instructions: 'Be brief.', tools: undefined, subAgents: undefined });
  });

  it('offers none of a tab’s tools while it is not known to show the site it joined under, and runs nothing in a tab that left', async () => {
    // The router names no site for the tab right now (its page is loading).
    const loading = setup({ recipesSite: undefined });
    const { run, ran, leave } = setup();
    expect(run?.tools().map((t) => t.name)).toContain('recipes_example__get_ingredients');
    leave();
    const output = await run!.callTool({ id: 'c1', name: 'recipes_example__get_ingredients', input: {} }, signal);
    expect(text(output)).toBe('Error [tool_changed]: recipes.example left the task, so nothing was run there.');
    expect(ran).toEqual([]);
    expect(loading.run?.tools().map((t) => t.name)).toEqual(['shop_example__add_to_basket']);
  });
});
