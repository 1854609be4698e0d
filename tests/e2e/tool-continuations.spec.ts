/**
 * Tool continuations (issue 23; docs/webmcp-conformance.md, "Tool continuations"): a tool the agent called asks
 * for a token (`execute(input, {signal, invocation})`, `invocation.requestToken()`), carries it to its next
 * same-origin page and navigates; that page's `document.modelContext.resumeTool(token, callback)` finishes the
 * call, and the model reads the callback's result. Polyfill only: Chromium 156's native WebMCP has no
 * continuations, and the extension does not add them to a native modelContext.
 */
import type { Worker } from '@playwright/test';
import type { ToolOutput } from '../../lib/agent/types';
import { toolCard } from './browser';
import { expectTools, textOf } from './connector-helpers';
import { expect, screenshot, sendFromPanel, test, useCloud } from './sidepanel-helpers';

test.skip(
  ({ nativeWebMCP }) => nativeWebMCP,
  'Native WebMCP (Chromium 156) has no tool continuations and the extension leaves a native modelContext alone: a documented difference (docs/webmcp-conformance.md).',
);

/** Runs a call from the service worker, as the agent host does, with this call's time limit. */
function callWithLimit(sw: Worker, tabId: number, name: string, input: unknown, timeoutMs: number): Promise<ToolOutput> {
  return sw.evaluate(
    ([t, n, i, ms]) => (globalThis as any).testToolRouter.callTool(t, { id: 'continued', name: n, input: i }, { timeoutMs: ms }),
    [tabId, name, input, timeoutMs] as const,
  );
}

test("a tool that navigates finishes on the next same-origin page, and the model reads the callback's result", async ({
  context,
  server,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script({ type: 'reply', toolCalls: [{ name: 'open_receipt', input: {} }] }, { type: 'reply', text: 'Order 42 is paid.' });
  const page = await context.newPage();
  await page.goto(`${server.url}/continue-checkout.html`);
  await expectTools(serviceWorker, await tabIdOf(page), ['ask_token', 'open_receipt']);
  const panel = await openSidePanel(page);
  await expect(panel.getByRole('button', { name: 'Tools (2)' })).toBeVisible({ timeout: 20_000 });
  await sendFromPanel(panel, 'Open the receipt');
  await expect(panel.locator('.conversation .markdown').last()).toHaveText('Order 42 is paid.', { timeout: 30_000 });
  await expect(page).toHaveURL(/\/continue-done\.html#/);
  expect(await page.evaluate(() => (window as any).resumed)).toBe('resolved undefined');
  await expect(toolCard(panel, 'open_receipt').locator('.tool-state')).toHaveText('done');
  await toolCard(panel, 'open_receipt').locator('summary').click();
  // The transcript shows the callback's result as the call's output, then where it finished: the page, without the
  // fragment that carried the spent token.
  const token = decodeURIComponent(new URL(page.url()).hash.slice(1));
  expect(token).not.toBe('');
  await expect(toolCard(panel, 'open_receipt').getByRole('group')).toContainText(
    `"order": 42, "status": "paid", "page": "/continue-done.html" } ("open_receipt" navigated the page and finished on ${server.url}/continue-done.html.)`,
  );
  await expect(panel.locator('.conversation')).not.toContainText(token);
  await screenshot(panel, 'tool-continuation');
  // The model's second request carries the callback's result as the call's output.
  const second = provider.requests.filter((r) => r.path.endsWith('/chat/completions'))[1];
  const toolMessage = (second.body as { messages: { role: string; content: unknown }[] }).messages.find((m) => m.role === 'tool');
  const content = JSON.stringify(toolMessage?.content);
  expect(content).toContain('{\\"order\\":42,\\"status\\":\\"paid\\",\\"page\\":\\"/continue-done.html\\"}');
  expect(content).toContain(`navigated the page and finished on ${server.url}/continue-done.html.)`);
  expect(content).not.toContain(token);
});

test('after Stop, nothing of the run acts on the page: the next page’s running callback sees its signal abort, resumeTool rejects, and what it returns reaches nobody', async ({
  context,
  server,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'open_receipt', input: { to: '/continue-slow.html' } }] },
    { type: 'reply', text: 'The card was charged.' },
  );
  const page = await context.newPage();
  await page.goto(`${server.url}/continue-checkout.html`);
  await expectTools(serviceWorker, await tabIdOf(page), ['ask_token', 'open_receipt']);
  const panel = await openSidePanel(page);
  await expect(panel.getByRole('button', { name: 'Tools (2)' })).toBeVisible({ timeout: 20_000 });
  await sendFromPanel(panel, 'Pay for the order');
  // The next page took the token and its callback runs.
  await expect(page).toHaveURL(/\/continue-slow\.html#/, { timeout: 30_000 });
  await expect.poll(() => page.evaluate(() => (window as any).callbackStarted), { timeout: 30_000 }).toBe(true);
  await expect(toolCard(panel, 'open_receipt').locator('.tool-state')).toHaveText('running');

  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect.poll(() => page.evaluate(() => (window as any).signalSaw), { timeout: 30_000 }).toEqual(['abort: AbortError']);
  expect(await page.evaluate(() => (window as any).resumed)).toBe(
    'AbortError: The call was stopped (or waited too long): nothing this callback returns reaches the agent.',
  );
  await expect(panel.getByRole('heading', { name: 'Stopped' })).toBeVisible();
  await expect(toolCard(panel, 'open_receipt').locator('.tool-state')).toHaveText('cancelled');
  // The page lets the callback finish: it sees the call is over and charges nothing; what it returns goes nowhere.
  await page.evaluate(() => (window as any).finishCallback());
  await expect(page.locator('body')).not.toContainText('Charged');
  await expect(panel.locator('.conversation')).not.toContainText('charged');
  expect(provider.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
});

test('another origin cannot answer the call: resumeTool there is refused, the callback never runs, and the call ends unfinished', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/continue-checkout.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['ask_token', 'open_receipt']);
  const otherSite = `${server.url.replace('127.0.0.1', 'localhost')}/continue-done.html`;
  const output = await callWithLimit(serviceWorker, tabId, 'open_receipt', { to: otherSite }, 3_000);
  await expect(page).toHaveURL(/localhost.*\/continue-done\.html#/);
  expect(await page.evaluate(() => (window as any).resumed)).toBe(
    'NotFoundError: No tool call waits for this token: it is unknown, already used, expired, or for another page.',
  );
  expect(await page.evaluate(() => (window as any).callbackRan)).toBe(false);
  expect(output.isError).toBe(true);
  expect(textOf(output)).toMatch(
    /^Error \[timeout\]: "open_receipt" asked to finish on the next page and did not within 3 s\. "open_receipt" navigated the page to http:\/\/localhost:\d+\/continue-done\.html#/,
  );
});

test('only the agent’s call gets a token, and a token is good once', async ({ context, server, serviceWorker, tabIdOf }) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/continue-checkout.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['ask_token', 'open_receipt']);
  // The page's own call: nobody follows it to the next page.
  const own = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    const tool = (await mc.getTools()).find((t: { name: string }) => t.name === 'ask_token');
    return mc.executeTool(tool, {});
  });
  expect(own).toBe(
    'InvalidStateError: Only a call made by an agent that follows the page can continue on the next page; this call was made by the page itself.',
  );
  // The agent's call of the same tool gets one.
  expect(textOf(await callWithLimit(serviceWorker, tabId, 'ask_token', {}, 10_000))).toBe('token string');
  // The agent's call that navigates: resumed once on the next page; the same token again, or a forged one, is refused.
  const output = await callWithLimit(serviceWorker, tabId, 'open_receipt', {}, 10_000);
  expect(textOf(output)).toBe('{"order":42,"status":"paid","page":"/continue-done.html"}');
  const again = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    let ran = 0;
    const settle = (token: string) =>
      mc
        .resumeTool(token, () => ran++)
        .then(
          () => 'resolved',
          (error: DOMException) => error.name,
        );
    return { reused: await settle(sessionStorage.getItem('checkout-token')!), forged: await settle(crypto.randomUUID()), ran };
  });
  expect(again).toEqual({ reused: 'NotFoundError', forged: 'NotFoundError', ran: 0 });
});
