import { describe, expect, it } from 'vitest';
import type { ToolCall, ToolOutput } from '../agent/types';
import { createCallTimeline } from '../call-log/call-timeline';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import { callPageTool } from './call-page-tool';
import type { ConfirmationFlow } from './create-confirmation-flow';
import { createRunGuard, type RunGuard } from './create-run-guard';

const SHOP = 'https://shop.test';
const tool = (name: string, extra: Partial<TabToolEntry> = {}): TabToolEntry => ({
  name,
  originalName: name,
  origin: SHOP,
  frameId: 0,
  description: name,
  inputSchema: { type: 'object', properties: { card: { type: 'string', format: 'password' } }, additionalProperties: false },
  ...extra,
});
const ran: ToolOutput = { content: [{ type: 'text', text: 'ran' }] };
const text = (output: ToolOutput) => (output.content[0]?.type === 'text' ? output.content[0].text : '');

/** The steps around the call, recording what each was asked. */
function setup(
  options: { tools?: TabToolEntry[]; later?: TabToolEntry; answer?: 'run' | ToolOutput; guard?: RunGuard; sites?: string[] } = {},
) {
  let tools = options.tools ?? [tool('pay')];
  const seen = {
    waited: 0,
    current: 0,
    asked: [] as Parameters<ConfirmationFlow['check']>[],
    onPage: [] as string[],
    read: [] as string[],
  };
  const timeline = createCallTimeline();
  const deps = {
    tools: {
      find: (name: string) => tools.find((t) => t.name === name),
      all: () => tools,
      identity: (name: string) => {
        const found = tools.find((t) => t.name === name);
        return found ? { origin: found.origin, originalName: found.originalName } : undefined;
      },
      names: () => tools.map((t) => t.name),
      page: () => ({ url: `${SHOP}/checkout` }),
    },
    currentTools: async () => {
      seen.current++;
    },
    waitForTool: async () => {
      seen.waited++;
      if (options.later) tools = [...tools, options.later];
      return options.later;
    },
    // The page is named throughout these tests.
    waitForPage: async () => undefined,
    guard: () => options.guard,
    sites: () => options.sites ?? [],
    read: (origin: string) => void seen.read.push(origin),
    timeline,
    confirmations: {
      check: async (...args: Parameters<ConfirmationFlow['check']>) => {
        seen.asked.push(args);
        args[3].awaiting();
        return options.answer ?? 'run';
      },
    },
    runOnPage: async (call: ToolCall) => {
      seen.onPage.push(call.name);
      return ran;
    },
  };
  return { deps, seen, timeline };
}
const signal = () => new AbortController().signal;

describe('callPageTool', () => {
  it('runs the person’s call through the policy and records it with where the tool lives and its secret paths', async () => {
    const { deps, seen, timeline } = setup();
    const output = await callPageTool(
      { id: 'c1', name: 'pay', input: { card: '4111' } },
      signal(),
      { by: 'person', requestId: 'r1' },
      deps,
    );
    expect(output).toBe(ran);
    expect(seen.current).toBe(1);
    expect(seen.onPage).toEqual(['pay']);
    // The person's calls by hand are asked in the panel, under the in-browser agent's grants.
    expect(seen.asked[0][3]).toMatchObject({ top: `${SHOP}/checkout`, caller: { kind: 'agent' } });
    expect(seen.asked[0][3]).not.toHaveProperty('force');
    expect(timeline.entries()[0]).toMatchObject({
      id: 'c1',
      by: 'person',
      requestId: 'r1',
      origin: SHOP,
      frameId: 0,
      secretPaths: [['card']],
      state: 'done',
    });
  });

  it('waits for a tool the page does not offer yet, and runs it once it comes', async () => {
    const { deps, seen } = setup({ tools: [], later: tool('add_to_cart') });
    expect(await callPageTool({ id: 'c1', name: 'add_to_cart', input: {} }, signal(), { by: 'person' }, deps)).toBe(ran);
    expect(seen.waited).toBe(1);
  });

  it('refuses a name the page never offers, listing what it does, without a question or the page', async () => {
    const { deps, seen, timeline } = setup({ tools: [tool('search')] });
    const output = await callPageTool({ id: 'c1', name: 'pay', input: {} }, signal(), { by: 'agent' }, deps);
    expect(output.isError).toBe(true);
    expect(text(output)).toBe('Error [unknown_tool]: No tool named "pay" on this page. Available tools: search.');
    expect(seen.asked).toEqual([]);
    expect(seen.onPage).toEqual([]);
    expect(timeline.entries()[0]).toMatchObject({ state: 'error', errorCode: 'unknown_tool' });
  });

  it('refuses an agent’s call to a tool its agent was not offered before waiting, asking or running', async () => {
    const guard = createRunGuard({ site: SHOP, agent: { id: 'shop', tools: ['search'] }, stop: () => {} });
    const { deps, seen } = setup({ tools: [tool('pay'), tool('search')], guard });
    const output = await callPageTool({ id: 'c1', name: 'pay', input: {} }, signal(), { by: 'agent' }, deps);
    expect(text(output)).toMatch(/^Error \[unknown_tool\]: no tool named "pay" is offered to you/);
    expect(seen.waited + seen.asked.length + seen.onPage.length).toBe(0);
  });

  it('checks an agent’s arguments before asking (a late name was never checked), but leaves the person’s to the inspector', async () => {
    const guard = createRunGuard({ site: SHOP, agent: undefined, stop: () => {} });
    const { deps, seen } = setup({ guard });
    const output = await callPageTool({ id: 'c1', name: 'pay', input: { card: 4111 } }, signal(), { by: 'agent' }, deps);
    expect(text(output)).toMatch(/^Error \[invalid_input\]:/);
    expect(seen.asked).toEqual([]);
    expect(await callPageTool({ id: 'c2', name: 'pay', input: { card: 4111 } }, signal(), { by: 'person' }, deps)).toBe(ran);
  });

  it('asks an agent’s call whatever the policy says when the conversation read another site', async () => {
    const guard = createRunGuard({ site: SHOP, agent: undefined, stop: () => {} });
    const { deps, seen } = setup({ guard, sites: ['https://mail.test', SHOP] });
    await callPageTool({ id: 'c1', name: 'pay', input: {} }, signal(), { by: 'agent' }, deps);
    expect(seen.asked[0][3].force?.reason).toMatch(/holds what was read on mail\.test/);
  });

  it('asks before an agent’s call carries the shop’s data into a delegated frame’s read-only tool, and counts what the frame returned as its origin’s', async () => {
    const ADS = 'https://ads.test';
    const guard = createRunGuard({ site: SHOP, agent: undefined, stop: () => {} });
    const frameTool = tool('lookup', { origin: ADS, frameId: 3, annotations: { readOnlyHint: true } });
    const { deps, seen } = setup({ guard, tools: [tool('pay'), frameTool], sites: [SHOP] });
    await callPageTool({ id: 'c1', name: 'lookup', input: {} }, signal(), { by: 'agent' }, deps);
    expect(seen.asked[0][2]).toEqual({ origin: ADS, originalName: 'lookup' });
    expect(seen.asked[0][3].force?.reason).toBe(
      'This conversation holds what was read on shop.test; the arguments below would go to ads.test.',
    );
    expect(seen.read).toEqual([ADS]);
    // The person's own call by hand neither is forced nor adds to what the conversation holds.
    await callPageTool({ id: 'c2', name: 'lookup', input: {} }, signal(), { by: 'person' }, deps);
    expect(seen.asked[1][3]).not.toHaveProperty('force');
    expect(seen.read).toEqual([ADS]);
  });

  it('runs nothing the person declined, and nothing once the run’s tab left its site while they answered', async () => {
    const declined: ToolOutput = { content: [{ type: 'text', text: 'Error [declined]: no.' }], isError: true };
    const asDeclined = setup({ answer: declined });
    expect(await callPageTool({ id: 'c1', name: 'pay', input: {} }, signal(), { by: 'person' }, asDeclined.deps)).toBe(declined);
    expect(asDeclined.seen.onPage).toEqual([]);

    const guard = createRunGuard({ site: SHOP, agent: undefined, stop: () => {} });
    const moved = setup({ guard });
    moved.deps.confirmations.check = async () => {
      guard.notice('https://evil.test');
      return 'run';
    };
    const output = await callPageTool({ id: 'c2', name: 'pay', input: {} }, signal(), { by: 'agent' }, moved.deps);
    expect(text(output)).toMatch(/^Error \[tool_changed\]: the tab is on evil\.test now/);
    expect(moved.seen.onPage).toEqual([]);
  });

  it('remembers through the run’s guard a call whose outcome is unknown', async () => {
    const guard = createRunGuard({ site: SHOP, agent: undefined, stop: () => {} });
    const { deps } = setup({ guard });
    deps.runOnPage = async () => ({ content: [{ type: 'text', text: 'Error [timeout]: the page did not answer.' }], isError: true });
    const output = await callPageTool({ id: 'c1', name: 'pay', input: {} }, signal(), { by: 'agent' }, deps);
    expect(text(output)).toMatch(/outcome unknown/i);
    expect(guard.mustAsk({ origin: SHOP, originalName: 'pay' }, [SHOP])).toBeDefined();
  });
});
