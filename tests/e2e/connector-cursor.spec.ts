import { callTool, expectTools, IMPERATIVE_TOOLS, pendingCall, startCall, test } from './connector-helpers';
import { cursorState, openCdp, translateOf } from './cursor-state';
import { expect } from './fixtures';

test('nothing is added to a page where no tool runs', async ({ context, server, serviceWorker, tabIdOf }) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/imperative.html`);
  await expectTools(serviceWorker, await tabIdOf(page), IMPERATIVE_TOOLS);
  expect(await page.evaluate(() => document.querySelectorAll('webmcp-agent-cursor').length)).toBe(0);
  expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain('webmcp-agent');
});

test('an imperative call: the cursor goes to the element the tool changed, labelled, in a closed root, without layout shift', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/imperative.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, IMPERATIVE_TOOLS);
  const layoutBefore = await page.evaluate(() => [document.body.getBoundingClientRect().toJSON(), document.documentElement.scrollHeight]);
  await callTool(serviceWorker, tabId, 'counter_increment', { n: 1 });
  const host = await page.evaluate(() => {
    const el = document.querySelector('webmcp-agent-cursor') as HTMLElement | null;
    if (!el) return null;
    const style = getComputedStyle(el);
    return {
      shadowRootVisible: el.shadowRoot !== null,
      pointerEvents: style.pointerEvents,
      position: style.position,
      width: el.offsetWidth,
    };
  });
  expect(host).toEqual({ shadowRootVisible: false, pointerEvents: 'none', position: 'fixed', width: 0 });
  expect(await page.evaluate(() => [document.body.getBoundingClientRect().toJSON(), document.documentElement.scrollHeight])).toEqual(
    layoutBefore,
  );
  // The cursor is over the counter the tool changed, with the tool's title.
  const cdp = await openCdp(page);
  const target = await page.locator('#count').boundingBox();
  await expect.poll(async () => (await cursorState(cdp))?.label).toBe('Increment');
  await expect
    .poll(async () => {
      const { x, y } = translateOf((await cursorState(cdp))!.transform);
      return Math.abs(x - (target!.x + target!.width / 2)) < 45 && Math.abs(y - (target!.y + target!.height / 2)) < 25;
    })
    .toBe(true);
  // Clicks go through to the page.
  const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.tagName, [target!.x + 2, target!.y + 2]);
  expect(hit).not.toBe('WEBMCP-AGENT-CURSOR');
  // Then it fades.
  await expect.poll(async () => (await cursorState(cdp))?.opacity, { timeout: 5_000 }).toBe('0');
});

test('a declarative call parks the cursor on the submit control; reduced motion turns the glide off', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${server.url}/declarative.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['send_message', 'subscribe']);
  await startCall(serviceWorker, tabId, 'send_message', { message: 'hi' });
  await expect.poll(async () => (await pendingCall(serviceWorker)).states.length).toBe(1);
  const cdp = await openCdp(page);
  const button = await page.getByRole('button', { name: 'Send message' }).boundingBox();
  await expect
    .poll(
      async () => {
        const state = await cursorState(cdp);
        if (!state) return false;
        const { x, y } = translateOf(state.transform);
        return Math.abs(x - (button!.x + button!.width / 2)) < 45 && Math.abs(y - (button!.y + button!.height / 2)) < 25;
      },
      { timeout: 5_000 },
    )
    .toBe(true);
  const state = (await cursorState(cdp))!;
  expect(state.label).toBe('send_message');
  expect(state.transition).toBe('0.001s');
});
