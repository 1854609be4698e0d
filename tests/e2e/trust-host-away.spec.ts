/**
 * Issue 33, item 1, in the built extension with a scripted cloud model: a message typed on one site while the agent
 * host is away (Chrome closed the offscreen document) never runs on the site the tab reached meanwhile, whoever
 * compares the sites: the panel, or the host with what the router says of the tab. A site not known yet counts as
 * another site (docs/security.md, "A conversation belongs to its site"). The two loopback names are two sites:
 * 127.0.0.1 (the bank) and localhost (the partner, whose read-only `lookup` asks for everything said so far).
 */
import type { Page, Worker } from '@playwright/test';
import type { HostEvent } from '../../lib/messaging/agent-messages';
import { expectTools } from './connector-helpers';
import { expect, openWithPanel, sendFromPanel, test, useCloud } from './sidepanel-helpers';

test.describe.configure({ timeout: 120_000 });

const CARD = 'My card is 4111 1111 1111 1111, exp 04/29';

/**
 * Closes the agent host and keeps it away: the service worker brings the offscreen document back whenever a panel
 * pings it, so its creation waits here until `releaseHost` (Chrome may close the document at any time; a crash does
 * too).
 */
async function holdHostAway(sw: Worker): Promise<void> {
  await sw.evaluate(async () => {
    const offscreen = chrome.offscreen;
    const create = offscreen.createDocument.bind(offscreen);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    (globalThis as { releaseHost?: () => void }).releaseHost = release;
    offscreen.createDocument = ((parameters: Parameters<typeof create>[0]) =>
      released.then(() => create(parameters))) as typeof offscreen.createDocument;
    await offscreen.closeDocument();
  });
}

function releaseHost(sw: Worker): Promise<void> {
  return sw.evaluate(() => (globalThis as { releaseHost?: () => void }).releaseHost?.());
}

/** What the partner's lookup received (its server's log). */
const looked = (tab: Page) => tab.evaluate(() => (window as { looked?: string[] }).looked);

test('a message typed on the bank while the host is away comes back to the box with the note once the tab shows the partner: the partner’s read-only lookup gets nothing', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  // What an obedient model would do on the partner's site, as its tool's description asks.
  provider.script({ type: 'reply', toolCalls: [{ name: 'lookup', input: { query: CARD } }] }, { type: 'reply', text: 'No offers.' });
  const { tab, tabId, panel } = await openWithPanel({ context, serviceWorker, tabIdOf, openSidePanel }, `${server.url}/bank.html`, [
    'get_profile',
    'partner_offers',
  ]);

  await holdHostAway(serviceWorker);
  await expect(panel.getByText('Connecting to the agent…')).toBeVisible({ timeout: 30_000 });
  // The person types their card number on the bank; the panel shows it waiting for the agent.
  await sendFromPanel(panel, CARD);
  await expect(panel.locator('.composer-waiting')).toContainText('Sending as soon as the agent is ready: “My card is 4111');

  // The tab moves to the partner while the host is away.
  await tab.goto(`${server.crossOriginUrl}/partner.html`);
  await expectTools(serviceWorker, tabId, ['lookup']);
  await releaseHost(serviceWorker);
  // The host is back and knows the tab: the panel lists the partner's tool.
  await expect(panel.getByRole('button', { name: 'Tools (1)' })).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByText('Connecting to the agent…')).toHaveCount(0);

  await expect(panel.getByRole('alert')).toContainText(
    `The tab moved to localhost:${server.port} before the agent was ready, so your message was not sent.`,
  );
  await expect(panel.getByRole('textbox', { name: 'Message' })).toHaveValue(CARD);
  await expect(panel.locator('.composer-waiting')).toHaveCount(0);
  await expect(panel.locator('.conversation').getByText(CARD)).toHaveCount(0);
  expect(await looked(tab)).toEqual([]);
  expect(provider.requests.filter((r) => r.path.endsWith('/chat/completions'))).toEqual([]);
});

test('the host itself refuses a message for the bank that reaches it first after it came back, while the tab shows the partner: it goes back with the note, and the partner’s lookup gets nothing', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  openOptions,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script({ type: 'reply', toolCalls: [{ name: 'lookup', input: { query: CARD } }] }, { type: 'reply', text: 'No offers.' });
  const bankUrl = `${server.url}/bank.html`;
  const { tab, tabId, panel } = await openWithPanel({ context, serviceWorker, tabIdOf, openSidePanel }, bankUrl, [
    'get_profile',
    'partner_offers',
  ]);
  // The panel goes too: what speaks to the host first when it comes back is a panel that still believes the tab
  // shows the bank (its bind carries the bank's URL, its message the bank's site), as one whose queued intents
  // went out on reconnection would.
  await panel.close();
  await holdHostAway(serviceWorker);
  await tab.goto(`${server.crossOriginUrl}/partner.html`);
  await expectTools(serviceWorker, tabId, ['lookup']);
  await releaseHost(serviceWorker);

  const extensionPage = await openOptions();
  const events = await extensionPage.evaluate(
    async ([id, url, site, text]) => {
      // The host may still be loading: a Port to nobody closes at once, so try until it answers the bind.
      for (;;) {
        const heard: HostEvent[] = [];
        const port = chrome.runtime.connect({ name: 'webmcp-agent-panel' });
        // Answered: a notice, or a run that ended (the message ran).
        const outcome = await new Promise<'answered' | 'gone'>((resolve) => {
          port.onDisconnect.addListener(() => resolve('gone'));
          port.onMessage.addListener((event: HostEvent) => {
            heard.push(event);
            if (event.type === 'panel/notice' || (event.type === 'panel/tab' && event.snapshot.lastRun)) resolve('answered');
          });
          port.postMessage({ type: 'panel/bind', tabId: id, url });
          port.postMessage({ type: 'panel/send', tabId: id, text, site });
        });
        if (outcome === 'answered') {
          port.disconnect();
          return heard;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    [tabId, bankUrl, server.url, CARD] as const,
  );
  const notice = events.find((e) => e.type === 'panel/notice');
  expect(notice).toMatchObject({
    tabId,
    draft: CARD,
    message: `The tab moved to localhost:${server.port} before the agent was ready, so your message was not sent. Send it again to ask about localhost:${server.port}.`,
  });
  expect(await looked(tab)).toEqual([]);
  expect(provider.requests.filter((r) => r.path.endsWith('/chat/completions'))).toEqual([]);
});
