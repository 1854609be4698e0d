import { describe, expect, it } from 'vitest';
import type { ToolCall, ToolOutput } from '../agent/types';
import { createCallTimeline } from '../call-log/call-timeline';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import type { ConfirmationFlow } from './create-confirmation-flow';
import type { ClientCallRequest } from '../messaging/client-call-request';
import { runClientCall } from './run-client-call';

const SHOP = 'https://shop.test';
const pay: TabToolEntry = {
  name: 'pay',
  originalName: 'pay',
  origin: SHOP,
  frameId: 0,
  description: 'Pay',
  inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
};
const call: ToolCall = { id: 'c1', name: 'pay', input: { amount: 5 } };
const ran: ToolOutput = { content: [{ type: 'text', text: 'paid' }] };
const text = (output: ToolOutput) => (output.content[0]?.type === 'text' ? output.content[0].text : '');

function setup(options: { site?: string; tools?: TabToolEntry[]; answer?: () => 'run' | ToolOutput } = {}) {
  let site: string | undefined = options.site ?? SHOP;
  const tools = options.tools ?? [pay];
  const seen = { asked: [] as Parameters<ConfirmationFlow['check']>[], onPage: 0, settled: [] as string[], onAsking: 0 };
  const timeline = createCallTimeline();
  const deps = {
    tools: {
      find: (name: string) => tools.find((t) => t.name === name),
      identity: (name: string) => (tools.some((t) => t.name === name) ? { origin: SHOP, originalName: name } : undefined),
      page: () => ({ url: `${SHOP}/checkout` }),
    },
    currentSite: () => site,
    timeline,
    confirmations: {
      check: async (...args: Parameters<ConfirmationFlow['check']>) => {
        seen.asked.push(args);
        args[3].awaiting();
        return options.answer?.() ?? 'run';
      },
    },
    runOnPage: async () => {
      seen.onPage++;
      return ran;
    },
    settled: (callId: string) => seen.settled.push(callId),
  };
  const request: ClientCallRequest = {
    client: 'Claude Desktop',
    site: SHOP,
    signal: new AbortController().signal,
    onAsking: () => seen.onAsking++,
  };
  return { deps, seen, timeline, request, moveTo: (to: string) => (site = to) };
}

describe('runClientCall', () => {
  it('asks in the client’s name, runs the call, and records it as the client’s', async () => {
    const { deps, seen, timeline, request } = setup();
    const answer = await runClientCall(call, { ...request, force: { reason: 'It read mail.test.' } }, deps);
    expect(answer).toEqual({ output: ran, ran: true });
    expect(seen.asked[0][3]).toMatchObject({
      top: `${SHOP}/checkout`,
      requester: 'Claude Desktop',
      force: { reason: 'It read mail.test.' },
    });
    expect(seen.onAsking).toBe(1);
    expect(seen.settled).toEqual(['c1']);
    expect(timeline.entries()[0]).toMatchObject({
      by: 'client',
      client: 'Claude Desktop',
      tool: 'pay',
      origin: SHOP,
      frameId: 0,
      state: 'done',
    });
  });

  it('runs only the tool instance the client was shown: another frame’s tool under the name is neither asked about nor run', async () => {
    const framePay: TabToolEntry = { ...pay, origin: 'https://ads.test', frameId: 3, documentId: 'doc-ads' };
    const shown = { frameId: 0, origin: SHOP, originalName: 'pay' };
    const swapped = setup({ tools: [framePay] });
    const answer = await runClientCall(call, { ...swapped.request, shown }, swapped.deps);
    expect(answer.ran).toBe(false);
    expect(text(answer.output)).toMatch(/^Error \[unknown_tool\]/);
    expect(swapped.seen.asked).toEqual([]);
    expect(swapped.seen.onPage).toBe(0);
    const same = setup();
    expect(await runClientCall(call, { ...same.request, shown }, same.deps)).toEqual({ output: ran, ran: true });
  });

  it('runs nothing once the tab shows another site than the one the tool was shared from', async () => {
    const { deps, seen, timeline, request } = setup({ site: 'https://evil.test' });
    const { output, ran: reached } = await runClientCall(call, request, deps);
    expect(reached).toBe(false);
    expect(text(output)).toBe(
      'Error [tool_changed]: the tab is on evil.test now, not shop.test where this tool was shared. Nothing was run. List the tools again.',
    );
    expect(seen.asked).toEqual([]);
    expect(timeline.entries()[0]).toMatchObject({ state: 'error', errorCode: 'tool_changed' });
  });

  it('runs nothing when the tab left the site while the person answered', async () => {
    const { deps, seen, request, moveTo } = setup({
      answer: () => {
        moveTo('https://evil.test');
        return 'run';
      },
    });
    const { output, ran: reached } = await runClientCall(call, request, deps);
    expect(reached).toBe(false);
    expect(text(output)).toMatch(/^Error \[tool_changed\]: the tab is on evil\.test now/);
    expect(seen.onPage).toBe(0);
    expect(seen.settled).toEqual([]);
  });

  it('refuses a tool the page no longer offers, and arguments its schema refuses, before asking', async () => {
    const gone = setup({ tools: [] });
    const refused = await runClientCall(call, gone.request, gone.deps);
    expect(text(refused.output)).toBe('Error [unknown_tool]: The page no longer offers pay. List the tools again.');
    const wrong = setup();
    const invalid = await runClientCall({ ...call, input: { amount: 'five' } }, wrong.request, wrong.deps);
    expect(invalid.ran).toBe(false);
    expect(text(invalid.output)).toMatch(/^Error \[invalid_input\]:/);
    expect(gone.seen.asked.length + wrong.seen.asked.length).toBe(0);
  });

  it('refuses a debugging tool as one the page does not offer, before asking, however the client learned its name', async () => {
    const debug = setup({ tools: [{ ...pay, annotations: { debugging: true } }] });
    const refused = await runClientCall(call, debug.request, debug.deps);
    expect(refused.ran).toBe(false);
    expect(text(refused.output)).toBe('Error [unknown_tool]: The page no longer offers pay. List the tools again.');
    expect(debug.seen.asked).toEqual([]);
    expect(debug.seen.onPage).toBe(0);
  });

  it('hands back what the person declined, without running', async () => {
    const declined: ToolOutput = { content: [{ type: 'text', text: 'Error [declined]: no.' }], isError: true };
    const { deps, seen, request } = setup({ answer: () => declined });
    expect(await runClientCall(call, request, deps)).toEqual({ output: declined, ran: false });
    expect(seen.onPage).toBe(0);
  });

  it('lets the live state go even when the run on the page fails', async () => {
    const { deps, seen, request } = setup();
    deps.runOnPage = async () => {
      throw new Error('the bridge went away');
    };
    await expect(runClientCall(call, request, deps)).rejects.toThrow('the bridge went away');
    expect(seen.settled).toEqual(['c1']);
  });

  it('masks what the schema marks secret in its timeline record, and redacts it from the echo, as for the agent’s calls', async () => {
    const signIn: TabToolEntry = {
      name: 'sign_in',
      originalName: 'sign_in',
      origin: SHOP,
      frameId: 0,
      description: 'Signs in',
      inputSchema: { type: 'object', properties: { user: { type: 'string' }, password: { type: 'string', format: 'password' } } },
    };
    const { deps, timeline, request } = setup({ tools: [signIn] });
    deps.runOnPage = async () => ({ content: [{ type: 'text', text: 'Welcome ada (password hunter2-horse accepted).' }] });
    await runClientCall({ id: 'c2', name: 'sign_in', input: { user: 'ada', password: 'hunter2-horse' } }, request, deps);
    const [record] = timeline.entries();
    expect(record).toMatchObject({ by: 'client', input: { user: 'ada', password: '[redacted]' }, secretPaths: [['password']] });
    expect(record.output).toBe('Welcome ada (password [redacted] accepted).');
    expect(JSON.stringify(timeline.entries())).not.toContain('hunter2-horse');
  });

  it('asks for the client as a caller of its own, by its name; a client with no name is no caller grants can know', async () => {
    const named = setup();
    await runClientCall(call, named.request, named.deps);
    expect(named.seen.asked[0][3].caller).toEqual({ kind: 'desktop', name: 'Claude Desktop' });
    for (const client of ['MCP client', '']) {
      const unnamed = setup();
      await runClientCall(call, { ...unnamed.request, client }, unnamed.deps);
      expect(unnamed.seen.asked[0][3].caller).toBeUndefined();
    }
  });
});
