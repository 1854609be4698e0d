/**
 * Helpers for the hostile pages' specs (issue 45; the pages are tests/fixtures/pages/hostile/): what the panel on a
 * hostile tab says, and calls started from the service worker that the test ends or reads later.
 */
import type { Page, Worker } from '@playwright/test';
import type { ToolOutput } from '../../lib/agent/types';
import { expect } from './fixtures';

/** Waits until the panel's conversation view says the page met a limit, with these words among the notes. */
export async function expectPanelLimit(panel: Page, words: string | RegExp): Promise<void> {
  const notice = panel.locator('.page-limits');
  await expect(notice).toContainText('This page asks more of the extension than it allows.', { timeout: 30_000 });
  await expect(notice).toContainText(words, { timeout: 30_000 });
}

/** Starts `count` calls in the service worker without waiting for them; each keeps its result in globalThis.hostileCalls. */
export function startCalls(sw: Worker, tabId: number, name: string, count: number): Promise<void> {
  return sw.evaluate(
    ([t, n, c]) => {
      const g = globalThis as any;
      g.hostileCalls = Array.from({ length: c }, (_, i) => {
        const entry = { output: undefined as unknown, done: undefined as unknown };
        entry.done = g.testToolRouter.callTool(t, { id: `hostile-${i}`, name: n, input: { n: i } }).then((output: unknown) => {
          entry.output = output;
        });
        return entry;
      });
    },
    [tabId, name, count] as const,
  );
}

/** Waits for every call startCalls began, and gives their results. */
export function finishedCalls(sw: Worker): Promise<ToolOutput[]> {
  return sw.evaluate(async () => {
    const calls = (globalThis as any).hostileCalls as { output: unknown; done: Promise<void> }[];
    await Promise.all(calls.map((c) => c.done));
    return calls.map((c) => c.output as ToolOutput);
  });
}
