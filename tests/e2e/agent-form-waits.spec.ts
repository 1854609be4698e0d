/**
 * Issue 36, item 3: a declarative form without `toolautosubmit` leaves the agent's call pending until the person
 * submits it (webmcp#307). In the built extension, with a scripted cloud model: the tool card says so in the
 * extension's own words, the cursor rests on the form's submit button, the person's Submit completes the call, and
 * Stop cancels it (the page hears `toolcancel`, the form is no longer running). The call's lack of a time limit
 * while it waits, and that no other tool can look like this, are unit tests (create-frame-tool-host.test.ts,
 * create-tool-router.test.ts).
 */
import type { Page } from '@playwright/test';
import { toolCard } from './browser';
import { cursorState, openCdp, translateOf } from './cursor-state';
import { expect, openWithPanel, sendFromPanel, test, useCloud } from './sidepanel-helpers';

const PROMPT = 'Review the form on the page and press Submit.';

/** Asks the scripted model to send a message through the form, approves the call, and waits until it waits. */
async function startFormCall(panel: Page): Promise<void> {
  await sendFromPanel(panel, 'Send the shop a hello');
  await toolCard(panel, 'send_message').getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
  await expect(toolCard(panel, 'send_message').getByRole('group', { name: PROMPT })).toBeVisible({ timeout: 30_000 });
}

test('a form that waits for the person: the card says to press Submit, the cursor rests on it, and the person’s Submit completes the call', async ({
  context,
  server,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'send_message', input: { message: 'Hello shop' } }] },
    { type: 'reply', text: 'The shop has your message.' },
  );
  const { tab, panel } = await openWithPanel({ context, serviceWorker, tabIdOf, openSidePanel }, `${server.url}/declarative.html`, [
    'send_message',
    'subscribe',
  ]);
  await startFormCall(panel);
  await expect(tab.locator('textarea[name=message]')).toHaveValue('Hello shop');
  // The cursor ends its walk over the fields on the submit button, and stays there while the call waits.
  const cdp = await openCdp(tab);
  const submit = (await tab.getByRole('button', { name: 'Send message' }).boundingBox())!;
  await expect
    .poll(async () => {
      const state = await cursorState(cdp);
      if (!state) return false;
      const { x, y } = translateOf(state.transform);
      return Math.abs(x - (submit.x + submit.width / 2)) < 45 && Math.abs(y - (submit.y + submit.height / 2)) < 25;
    })
    .toBe(true);
  await expect(toolCard(panel, 'send_message').locator('.tool-state')).not.toHaveText('done');
  expect(await tab.evaluate(() => (window as any).submissions)).toEqual([]);
  // The person presses the button.
  await tab.getByRole('button', { name: 'Send message' }).click();
  await expect(toolCard(panel, 'send_message').locator('.tool-state')).toHaveText('done');
  await expect(panel.locator('.conversation .markdown').last()).toHaveText('The shop has your message.');
  expect(await tab.evaluate(() => (window as any).submissions)).toEqual([
    { form: 'contact', agentInvoked: true, data: { message: 'Hello shop' } },
  ]);
});

test('a form that waits for the person: Stop cancels the call, and the page hears toolcancel', async ({
  context,
  server,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script({ type: 'reply', toolCalls: [{ name: 'send_message', input: { message: 'Never mind' } }] });
  const { tab, panel } = await openWithPanel({ context, serviceWorker, tabIdOf, openSidePanel }, `${server.url}/declarative.html`, [
    'send_message',
    'subscribe',
  ]);
  await tab.evaluate(() => {
    const w = window as any;
    w.cancelled = [];
    w.document.modelContext.addEventListener('toolcancel', (event: any) => w.cancelled.push(event.toolName));
  });
  await startFormCall(panel);
  // Under the polyfill the card says the call waits as the call starts (run-frame-call.ts), and the page's world
  // fills and marks the form a moment later: on a loaded CI machine the first read came before the mark.
  await expect.poll(() => tab.evaluate(() => document.getElementById('contact')!.matches(':tool-form-active'))).toBe(true);
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(toolCard(panel, 'send_message').locator('.tool-state')).toHaveText('cancelled');
  await expect.poll(() => tab.evaluate(() => (window as any).cancelled)).toEqual(['send_message']);
  expect(await tab.evaluate(() => document.getElementById('contact')!.matches(':tool-form-active'))).toBe(false);
  expect(await tab.evaluate(() => (window as any).submissions)).toEqual([]);
});
