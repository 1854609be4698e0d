import { buildTestModel } from '../../scripts/make-test-model';
import { startModelHost } from '../servers/model-host';
import { toolCard } from './browser';
import { callTool, expectTools, getTools, textOf } from './connector-helpers';
import { MODEL_ID, useModelHost } from './local-helpers';
import { expect, test, useCloud } from './sidepanel-helpers';

/**
 * Issue 17: a client-side router whose routes register their tools in effects 30–500 ms after the call that
 * changed the route. Every model step must see the page as it is now, also with the CPU slowed down.
 */
test.describe.configure({ timeout: 240_000 });

const RUNS = 20;

test(`a two-step task on a router that registers tools in delayed effects passes ${RUNS} of ${RUNS} runs with the CPU slowed 4×`, async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(`${server.url}/hotel-router.html`);
  const tabId = await tabIdOf(page);
  const failures: string[] = [];
  for (let run = 1; run <= RUNS; run++) {
    if (run > 1) await page.goto(`${server.url}/hotel-router.html`);
    await expectTools(serviceWorker, tabId, ['lookup_amenity', 'search_location']);
    const search = textOf(await callTool(serviceWorker, tabId, 'search_location', { location: 'Tokyo' }));
    // No polling between the steps: what the router holds when the call returns is what the next step is offered.
    const offered = (await getTools(serviceWorker, tabId)).tools.map((t) => t.name).sort();
    const filter = textOf(await callTool(serviceWorker, tabId, 'filter_search_results', { gym: true, breakfast: true }));
    const expected = '2 hotels in Tokyo with a gym and breakfast: Shinjuku Tower, Ginza Grand.';
    if (search !== 'Searching hotels in Tokyo.' || filter !== expected) {
      failures.push(`run ${run}: offered ${offered.join(', ')}; search said "${search}"; filter said "${filter}"`);
    } else {
      expect(offered).toEqual(['filter_search_results', 'lookup_amenity', 'view_hotel']);
    }
  }
  expect(failures).toEqual([]);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
});

test('cloud: a tool that appears 400 ms after the previous call resolved is offered at the next step and runs', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'search_location', input: { location: 'Tokyo' } }] },
    { type: 'reply', toolCalls: [{ name: 'filter_search_results', input: { gym: true, breakfast: true } }] },
    { type: 'reply', text: 'Two hotels in Tokyo have a gym and breakfast.' },
  );
  const page = await context.newPage();
  await page.goto(`${server.url}/hotel-router.html?delay=400`);
  const panel = await openSidePanel(page);
  await expect(panel.getByRole('button', { name: 'Tools (2)' })).toBeVisible({ timeout: 20_000 });
  await panel.getByRole('textbox', { name: 'Message' }).fill('Search Tokyo, then filter by gym and breakfast');
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.locator('.conversation .markdown').last()).toHaveText('Two hotels in Tokyo have a gym and breakfast.', {
    timeout: 30_000,
  });
  await expect(toolCard(panel, 'search_location').locator('.tool-state')).toHaveText('done');
  await expect(toolCard(panel, 'filter_search_results').locator('.tool-state')).toHaveText('done');
  await expect(page.locator('#view li')).toHaveText(['Shinjuku Tower', 'Ginza Grand']);
  // The second model request was offered the tool the results route registered 400 ms after the search resolved.
  const requests = provider.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const offered = (i: number) =>
    ((requests[i].body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name).sort();
  expect(offered(0)).toEqual(['lookup_amenity', 'search_location']);
  expect(offered(1)).toEqual(['filter_search_results', 'lookup_amenity', 'view_hotel']);
  const log = await page.evaluate(() => (window as unknown as { routeLog: { route: string }[] }).routeLog.map((e) => e.route));
  expect(log).toEqual(['home', 'results']);
});

test('on-device: a tool that appears 400 ms after the previous call resolved is offered at the next step and runs', async ({
  context,
  server,
  serviceWorker,
  openSidePanel,
}) => {
  // The scripted model searches, then filters once the search's result is back, then answers from the filter's
  // result (its hotel names hold the trigger word).
  const host = await startModelHost({
    [MODEL_ID]: buildTestModel({
      reply: '<tool_call>\n{"name": "search_location", "arguments": {"location": "Tokyo"}}\n</tool_call>',
      afterToolResult: '<tool_call>\n{"name": "filter_search_results", "arguments": {"gym": true, "breakfast": true}}\n</tool_call>',
      triggers: [{ word: 'Shinjuku', reply: 'Shinjuku Tower and Ginza Grand have a gym and breakfast.' }],
      // The test model reads bytes as tokens: 4,096 is about 4 KB of text, which the system prompt (its error-code
      // list grew with issue 45's too_many_calls) and two results fill by the third step, at the model's edge. What
      // this test is about is the tool that appears late, not a tight context: 8,192, as sidepanel-local's.
      contextTokens: 8192,
    }),
  });
  try {
    await useModelHost(serviceWorker, host);
    const page = await context.newPage();
    await page.goto(`${server.url}/hotel-router.html?delay=400`);
    const panel = await openSidePanel(page);
    await expect(panel.getByRole('button', { name: 'Tools (2)' })).toBeVisible({ timeout: 20_000 });
    await panel.getByRole('button', { name: /^Download/ }).click();
    await expect(panel.locator('.status-card')).toHaveCount(0, { timeout: 120_000 });
    await panel.getByRole('textbox', { name: 'Message' }).fill('Search Tokyo, then filter by gym and breakfast');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(toolCard(panel, 'filter_search_results').locator('.tool-state')).toHaveText('done', { timeout: 60_000 });
    await expect(toolCard(panel, 'search_location').locator('.tool-state')).toHaveText('done');
    await expect(panel.locator('.conversation .markdown').last()).toHaveText('Shinjuku Tower and Ginza Grand have a gym and breakfast.', {
      timeout: 60_000,
    });
    await expect(page.locator('#view li')).toHaveText(['Shinjuku Tower', 'Ginza Grand']);
  } finally {
    await host.close();
  }
});
