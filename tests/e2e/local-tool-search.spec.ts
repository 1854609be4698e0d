/**
 * The search step in the panel (lib/agent/find-tools.ts; docs/architecture.md § The search step): on a page of eleven
 * tools (tests/fixtures/pages/travel-desk.html) the on-device ranker offers the model eight, and for a request about
 * yen and dollars on a trip it leaves convert_currency out. The scripted test model, running in the real engine,
 * searches in its own words (find_tools), and once the search's result names the tool it calls it, on the page.
 */
import { toolCard } from './browser';
import { expect, test } from './fixtures';
import { downloadModel, openPageWithPanel, send, startTestModelHost, useModelHost } from './local-helpers';

test.describe.configure({ timeout: 180_000 });
test.skip(
  ({ nativeWebMCP }) => nativeWebMCP,
  'The engine runs the same on both WebMCP paths (page tools on the native path: bridge-*.spec.ts); the polyfill project covers it.',
);

test('the first ranking misses the tool; the model searches, finds it, and calls it', async ({
  context,
  server,
  serviceWorker,
  extensionId,
}) => {
  // What the model says is chosen by the newest trigger word in what it reads: the request ("yen") makes it search;
  // the search's result, naming convert_currency ("bureau" is in its description only), makes it call that tool; the
  // tool's result ("Receipt") makes it answer.
  const host = await startTestModelHost({
    reply: 'I cannot help with that.',
    afterToolResult: 'I could not finish.',
    triggers: [
      { word: 'yen', reply: '<tool_call>\n{"name": "find_tools", "arguments": {"query": "convert currency"}}\n</tool_call>' },
      {
        word: 'bureau',
        reply: '<tool_call>\n{"name": "convert_currency", "arguments": {"amount": 200, "from": "USD", "to": "JPY"}}\n</tool_call>',
      },
      { word: 'Receipt', reply: '200 US dollars come to 31400 Japanese yen.' },
    ],
    // A token per byte: eight tools, the search tool and the prompt's rules.
    contextTokens: 16_384,
  });
  try {
    await useModelHost(serviceWorker, host);
    const { page, panel } = await openPageWithPanel(context, serviceWorker, extensionId, `${server.url}/travel-desk.html`);
    await expect(panel.getByRole('button', { name: 'Tools (11)' })).toBeVisible();
    await downloadModel(panel);

    await send(panel, 'How many yen do I get for 200 dollars on my trip to Tokyo?');
    const search = toolCard(panel, 'find_tools');
    await expect(search.locator('.tool-state')).toHaveText('done', { timeout: 90_000 });
    const convert = toolCard(panel, 'convert_currency');
    await expect(convert.locator('.tool-state')).toHaveText('done', { timeout: 60_000 });
    await expect(panel.locator('.conversation .markdown').last()).toContainText('31400 Japanese yen', { timeout: 60_000 });
    // Had the first step offered convert_currency, the search would have found nothing new ("bureau" unread) and the
    // model would have said "I could not finish.": the call shows the search found what the ranking left out.
    // The search ran in the extension; the found tool ran on the page.
    expect(await page.evaluate(() => (window as unknown as { converted?: unknown }).converted)).toEqual({
      amount: 200,
      from: 'USD',
      to: 'JPY',
    });
    await expect(search).toContainText('convert_currency');
  } finally {
    await host.close();
  }
});
