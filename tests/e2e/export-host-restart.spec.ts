/**
 * Issue 48, item 1, in the built extension: an export asked of the agent host that restarts before its answer
 * reaches the panel fails with one clear error in the Export menu, instead of waiting forever; the next export,
 * asked of the host that came back, downloads.
 *
 * The host answers an export at once, so the test holds the answer back on its way: an init script in the side panel
 * wraps runtime.connect so that, while the test says so, the answers to `panel/export-transcript` asks (on the Port's
 * request line) are counted and not delivered (as if the host were still working on the export). Then Chrome's offscreen document (the host) is closed, as Chrome
 * may do and a crash does, and the panel's Port drops.
 */
import { readFileSync } from 'node:fs';
import { expect, sendFromPanel, test, useCloud } from './sidepanel-helpers';

test.describe.configure({ timeout: 120_000 });

/** What the panel page's init script keeps on its window. */
interface Held {
  holdTranscripts?: boolean;
  /** The ids of the answers held back (each Port listener sees an answer: it counts once). */
  heldAnswers?: Set<unknown>;
  heldTranscripts?: number;
}

test('an export pending when the agent host restarts fails with one clear error; the next one downloads', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await context.addInitScript(() => {
    if (!location.pathname.endsWith('/sidepanel.html')) return;
    const held = window as unknown as Held;
    const runtime = chrome.runtime;
    const connect = runtime.connect.bind(runtime);
    // The panel's Ports, with the transcript events held back while the test says so.
    runtime.connect = ((...args: Parameters<typeof connect>) => {
      const port = connect(...args);
      return {
        name: port.name,
        postMessage: (message: unknown) => port.postMessage(message),
        disconnect: () => port.disconnect(),
        onDisconnect: port.onDisconnect,
        onMessage: {
          addListener: (listener: (message: unknown, from: unknown) => void) =>
            port.onMessage.addListener((message, from) => {
              // A transcript's answer on the Port's request line: `{ line: 'answer', id, answer: { text, fileName } }`.
              const answer = message as { line?: string; id?: unknown; answer?: { fileName?: unknown } };
              if (held.holdTranscripts && answer?.line === 'answer' && typeof answer.answer?.fileName === 'string') {
                held.heldAnswers ??= new Set();
                held.heldAnswers.add(answer.id);
                held.heldTranscripts = held.heldAnswers.size;
                return;
              }
              listener(message, from);
            }),
        },
      } as unknown as ReturnType<typeof connect>;
    }) as typeof runtime.connect;
  });
  await useCloud(serviceWorker, provider);
  provider.script({ type: 'reply', text: 'Here is the answer.' });
  const shop = await context.newPage();
  await shop.goto(`${server.url}/demo/`);
  const panel = await openSidePanel(shop);
  await sendFromPanel(panel, 'One question');
  await expect(panel.locator('.conversation').getByText('Here is the answer.')).toBeVisible({ timeout: 30_000 });

  await panel.evaluate(() => {
    (window as unknown as Held).holdTranscripts = true;
  });
  await panel.locator('details.menu summary').click();
  await panel.getByRole('button', { name: 'Conversation as Markdown' }).click();
  // The host answered; the answer is held on its way, so the export waits.
  await expect.poll(() => panel.evaluate(() => (window as unknown as Held).heldTranscripts ?? 0), { timeout: 30_000 }).toBe(1);
  await serviceWorker.evaluate(() => chrome.offscreen.closeDocument());

  await expect(panel.getByRole('alert')).toHaveText('The export failed: The agent host restarted before it answered. Try again.', {
    timeout: 30_000,
  });

  // The host comes back (the panel wakes it); the next export is answered and downloads.
  await panel.evaluate(() => {
    (window as unknown as Held).holdTranscripts = false;
  });
  const saved = panel.waitForEvent('download');
  await panel.getByRole('button', { name: 'Conversation as Markdown' }).click();
  const text = readFileSync((await (await saved).path())!, 'utf8');
  expect(text).toContain('Here is the answer.');
  await expect(panel.getByRole('alert')).toHaveCount(0);
});
