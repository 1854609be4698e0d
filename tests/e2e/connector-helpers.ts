/**
 * Helpers for the bridge specs: they drive the background's tool router (the RouterClient every agent host uses)
 * from the service worker, exactly as the agent host does.
 */
import type { Page, Worker } from '@playwright/test';
import type { ToolOutput } from '../../lib/agent/types';
import type { TabToolSnapshot } from '../../lib/messaging/tab-tool-snapshot';
import { expect, test } from './fixtures';

export { test };

/** The tools of tests/fixtures/pages/imperative.html, as the router names them. */
export const IMPERATIVE_TOOLS = [
  'bad_schema',
  'counter_increment',
  'echo',
  'get_json',
  'hangs',
  'huge',
  'mcp_error',
  'mcp_result',
  'returns_map',
  'returns_number',
  'returns_undefined',
  'throws',
];

export function getTools(sw: Worker, tabId: number): Promise<TabToolSnapshot> {
  return sw.evaluate((t) => (globalThis as any).testToolRouter.getTools(t), tabId);
}

/** The tab's model-facing tool names, sorted. */
export async function toolNames(sw: Worker, tabId: number): Promise<string[]> {
  return (await getTools(sw, tabId)).tools.map((t) => t.name).sort();
}

/** Waits until the tab lists exactly these model-facing names (15 s unless `timeout` says otherwise). */
export async function expectTools(sw: Worker, tabId: number, names: string[], timeout = 15_000): Promise<TabToolSnapshot> {
  await expect.poll(() => toolNames(sw, tabId), { timeout }).toEqual([...names].sort());
  return getTools(sw, tabId);
}

export function callTool(sw: Worker, tabId: number, name: string, input: unknown = {}): Promise<ToolOutput> {
  return sw.evaluate(([t, n, i]) => (globalThis as any).testToolRouter.callTool(t, { id: `call-${Math.random()}`, name: n, input: i }), [
    tabId,
    name,
    input,
  ] as const);
}

/** The text of a result's first content block. */
export function textOf(output: ToolOutput): string {
  const first = output.content[0];
  return first?.type === 'text' ? first.text : '';
}

/**
 * Starts a call in the service worker without waiting for it, recording its awaiting-confirmation states.
 * Read them with pendingCall(); the call's AbortController is kept for cancelPendingCall().
 */
export function startCall(sw: Worker, tabId: number, name: string, input: unknown = {}): Promise<void> {
  return sw.evaluate(
    ([t, n, i]) => {
      const g = globalThis as any;
      const controller = new AbortController();
      g.pending = { states: [] as unknown[], output: undefined as unknown, controller };
      g.testToolRouter
        .callTool(t, { id: 'pending', name: n, input: i }, { signal: controller.signal, onState: (s: unknown) => g.pending.states.push(s) })
        .then((output: unknown) => {
          g.pending.output = output;
        });
    },
    [tabId, name, input] as const,
  );
}

export function pendingCall(sw: Worker): Promise<{ states: { state: string; prompt: string }[]; output?: ToolOutput }> {
  return sw.evaluate(() => {
    const { states, output } = (globalThis as any).pending;
    return { states, output };
  });
}

export function cancelPendingCall(sw: Worker): Promise<void> {
  return sw.evaluate(() => (globalThis as any).pending.controller.abort());
}

/**
 * Watches the tab as the panel does (the router loads the whole bridge into its frames) and waits until the top
 * frame's bridge has sent its first report. A page without tools has only the stub until then. `timeout`: expect's
 * default (10 s) unless given.
 */
export async function watchTab(sw: Worker, tabId: number, timeout?: number): Promise<void> {
  await expect.poll(async () => (await getTools(sw, tabId)).page.url ?? '', { timeout }).not.toBe('');
}

/**
 * A cross-origin frame the page did not delegate `tools` to offers nothing: its registrations are refused by the
 * permissions policy, natively and, as the background tells the frame's polyfill, under the polyfill alike
 * (docs/webmcp-conformance.md). The router would leave out the tools of such a frame that registered anyway (a page's
 * own implementation) as not delegated.
 */
export async function expectUndelegatedFrame(page: Page, frame: string): Promise<void> {
  await expect
    .poll(
      () =>
        page
          .frameLocator(frame)
          .locator('body')
          .evaluate(() => (window as any).registerError),
      { timeout: 15_000 },
    )
    .toBe('NotAllowedError: Access to the feature "tools" is disallowed by permissions policy.');
}
