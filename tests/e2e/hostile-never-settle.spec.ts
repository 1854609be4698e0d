/**
 * Issue 45: a tool whose execute never settles, called again and again. A tab holds at most 16 calls waiting or
 * running: one more is refused at once with a clear error, and closing the tab ends every one of them.
 */
import { callTool, expectTools, textOf } from './connector-helpers';
import { expect, test } from './fixtures';
import { finishedCalls, startCalls } from './hostile-helpers';

test('calls that never settle: past 16 waiting in a tab, one more is refused at once; closing the tab ends them all', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/hostile/never-settle.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['never_settles']);
  await startCalls(serviceWorker, tabId, 'never_settles', 16);
  await expect.poll(() => page.evaluate(() => (window as any).started as number)).toBe(1);
  const refused = await callTool(serviceWorker, tabId, 'never_settles', { n: 99 });
  expect(refused.isError).toBe(true);
  expect(textOf(refused)).toBe(
    'Error [too_many_calls]: "never_settles" was not run: this tab already has 16 tool calls waiting or running, the most the extension allows. Wait for them to end.',
  );
  // Another tab is not held by it.
  const other = await context.newPage();
  await other.goto(`${server.url}/frame-order.html`);
  await expectTools(serviceWorker, await tabIdOf(other), ['place_order']);
  // Closing the hostile tab ends every call it held.
  await page.close();
  const outputs = await finishedCalls(serviceWorker);
  expect(outputs).toHaveLength(16);
  for (const output of outputs) expect(output.isError).toBe(true);
});
