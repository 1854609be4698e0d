import { callTool, expectTools, getTools, IMPERATIVE_TOOLS, test, textOf } from './connector-helpers';
import { expect } from './fixtures';

test.describe('imperative tools', () => {
  test('are listed with provider-safe names, their schema, annotations, origin and frame', async ({
    context,
    server,
    serviceWorker,
    tabIdOf,
  }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/imperative.html`);
    const tabId = await tabIdOf(page);
    const snapshot = await expectTools(serviceWorker, tabId, IMPERATIVE_TOOLS);
    const increment = snapshot.tools.find((t) => t.name === 'counter_increment')!;
    expect(increment).toMatchObject({
      originalName: 'counter.increment',
      title: 'Increment',
      description: 'Adds n to the counter and returns the new count.',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      origin: server.url,
      frameId: 0,
    });
    expect(snapshot.tools.find((t) => t.name === 'get_json')!.annotations).toEqual({
      readOnlyHint: true,
      untrustedContentHint: true,
      consequentialHint: false,
      // Every hint the page's modelContext reports (native and the polyfill alike), the debugging annotation too.
      debugging: false,
    });
    expect(snapshot.page).toMatchObject({ url: `${server.url}/imperative.html`, title: 'Imperative tools', h1: 'Imperative tools' });
    for (const tool of snapshot.tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  test('a malformed schema is flagged, not fatal', async ({ context, server, serviceWorker, tabIdOf }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/imperative.html`);
    const tabId = await tabIdOf(page);
    const snapshot = await expectTools(serviceWorker, tabId, IMPERATIVE_TOOLS);
    const bad = snapshot.tools.find((t) => t.name === 'bad_schema')!;
    expect(bad.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(bad.schemaError).toBe('inputSchema.properties must be an object mapping names to schemas');
    expect(await callTool(serviceWorker, tabId, 'bad_schema')).toEqual({ content: [{ type: 'text', text: 'still runs' }] });
  });

  test('results of every shape are normalised to a ToolOutput', async ({ context, server, serviceWorker, tabIdOf }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/imperative.html`);
    const tabId = await tabIdOf(page);
    await expectTools(serviceWorker, tabId, IMPERATIVE_TOOLS);
    expect(await callTool(serviceWorker, tabId, 'counter_increment', { n: 2 })).toEqual({
      content: [{ type: 'text', text: 'Count is 2' }],
    });
    await expect(page.locator('#count')).toHaveText('2');
    // Input as a JSON string is accepted too (what some models emit).
    expect(await callTool(serviceWorker, tabId, 'echo', '{"text":"hi"}')).toEqual({
      content: [{ type: 'text', text: '{"text":"hi"}' }],
      structuredContent: { text: 'hi' },
    });
    expect(await callTool(serviceWorker, tabId, 'get_json')).toEqual({
      content: [{ type: 'text', text: '{"items":[1,2,3],"ok":true}' }],
      structuredContent: { items: [1, 2, 3], ok: true },
    });
    expect(await callTool(serviceWorker, tabId, 'mcp_result')).toEqual({ content: [{ type: 'text', text: 'from mcp' }] });
    expect(await callTool(serviceWorker, tabId, 'mcp_error')).toEqual({ content: [{ type: 'text', text: 'out of stock' }], isError: true });
    expect(await callTool(serviceWorker, tabId, 'returns_undefined')).toEqual({ content: [{ type: 'text', text: 'undefined' }] });
    expect(await callTool(serviceWorker, tabId, 'returns_number')).toEqual({ content: [{ type: 'text', text: '42' }] });
    expect(await callTool(serviceWorker, tabId, 'returns_map')).toEqual({ content: [{ type: 'text', text: '{}' }], structuredContent: {} });
  });

  test('failures come back as Error [code] results', async ({ context, server, serviceWorker, tabIdOf }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/imperative.html`);
    const tabId = await tabIdOf(page);
    await expectTools(serviceWorker, tabId, IMPERATIVE_TOOLS);
    const unknown = await callTool(serviceWorker, tabId, 'nope');
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^Error \[unknown_tool\]: No tool named "nope" on this page\. Available tools: bad_schema, /);
    const thrown = await callTool(serviceWorker, tabId, 'throws');
    expect(thrown.isError).toBe(true);
    expect(textOf(thrown)).toMatch(/^Error \[tool_threw\]: .*/);
    const invalid = await callTool(serviceWorker, tabId, 'echo', [1, 2]);
    expect(textOf(invalid)).toBe('Error [invalid_input]: The input must be a JSON object; got an array.');
    const notJson = await callTool(serviceWorker, tabId, 'echo', 'not json');
    expect(textOf(notJson)).toBe('Error [invalid_input]: The input must be a JSON object; got text that is not JSON.');
  });

  test('a huge result is cut with a note', async ({ context, server, serviceWorker, tabIdOf }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/imperative.html`);
    const tabId = await tabIdOf(page);
    await expectTools(serviceWorker, tabId, IMPERATIVE_TOOLS);
    const output = await callTool(serviceWorker, tabId, 'huge');
    expect(output.content).toEqual([
      { type: 'text', text: 'x'.repeat(20_000) },
      { type: 'text', text: '[Output cut: the tool returned 100000 characters; only the first 20000 are shown.]' },
    ]);
    expect(output.isError).toBeUndefined();
  });

  test('a hanging tool times out, and Stop cancels a call (the page gets toolcancel)', async ({
    context,
    server,
    serviceWorker,
    tabIdOf,
  }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/imperative.html`);
    const tabId = await tabIdOf(page);
    await expectTools(serviceWorker, tabId, IMPERATIVE_TOOLS);
    // Cancel: the agent host aborts the call's signal.
    const cancelled = await serviceWorker.evaluate(async (t) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      return (globalThis as any).testToolRouter.callTool(t, { id: 'c1', name: 'hangs', input: {} }, { signal: controller.signal });
    }, tabId);
    expect(cancelled).toEqual({
      content: [{ type: 'text', text: 'Error [cancelled]: "hangs" was cancelled; the page was told (toolcancel).' }],
      isError: true,
    });
    await expect.poll(() => page.evaluate(() => (window as any).calls)).toEqual(['hangs aborted', 'toolcancel hangs']);
    // Timeout: a router with a short limit (the default is 30 s).
    const timedOut = await serviceWorker.evaluate(async (t) => {
      return (globalThis as any).testToolRouter.callTool(t, { id: 'c2', name: 'hangs', input: {} }, { timeoutMs: 500 });
    }, tabId);
    expect(timedOut).toEqual({
      content: [{ type: 'text', text: 'Error [timeout]: The tool did not finish within 500 ms; it was cancelled.' }],
      isError: true,
    });
    // The tab is free again: one call at a time, and the queue moved on.
    expect(await callTool(serviceWorker, tabId, 'returns_number')).toEqual({ content: [{ type: 'text', text: '42' }] });
    const snapshot = await getTools(serviceWorker, tabId);
    expect(snapshot.tools.length).toBe(IMPERATIVE_TOOLS.length);
  });
});
