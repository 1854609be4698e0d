/**
 * Tasks across tabs in Firefox's sidebar page (docs/security.md § 8), with the loopback provider scripting the
 * model: the person adds the recipes demo's tab to the shop's conversation through the chooser, the first call into
 * the recipes tab asks because the shop's data would go there, "Allow for this task" answers it, and the calls run in
 * the recipes tab (a second one in the same direction unasked). Part of tests/firefox/smoke.ts.
 */
import { assert, type Check } from '../shared/check-run';
import type { Page } from 'puppeteer-core';
import { siteLabel } from '../../lib/agent/site-tool-names';
import { readSent, type ProviderServer } from '../servers/provider-server';
import type { StaticServer } from '../servers/static-server';
import { type FirefoxSession, run, waitFor } from './launch-firefox';

const bodyText = (page: Page) => run<string>(page, '() => document.body.innerText');

/** Clicks the button whose accessible name (aria-label, else its text) starts with `name`, as a person would. */
function clickButton(page: Page, name: string): Promise<boolean> {
  return run<boolean>(
    page,
    `(name) => {
      const button = [...document.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') ?? b.textContent.trim()).startsWith(name));
      button?.click();
      return Boolean(button);
    }`,
    name,
  );
}

/** The state and place a tool card shows, by the tool's name. */
function card(panel: Page, name: string): Promise<{ state?: string; place?: string; asks: boolean } | undefined> {
  return run(
    panel,
    `(name) => {
      const card = [...document.querySelectorAll('.tool-card')].find((c) => c.textContent.includes(name));
      if (!card) return undefined;
      return {
        state: card.querySelector('.tool-state')?.textContent,
        place: card.querySelector('.tool-place')?.textContent,
        asks: Boolean(card.querySelector('fieldset.confirm')),
      };
    }`,
    name,
  );
}

/** Runs the check; it counts in the smoke's tally. `useCloud` stores the cloud settings (the smoke's SAVE_SETTINGS). */
export async function runTaskTabChecks(
  check: Check,
  deps: { session: FirefoxSession; server: StaticServer; provider: ProviderServer; useCloud: () => Promise<void> },
): Promise<void> {
  const { session, server, provider } = deps;
  await check(
    'tasks across tabs: the chooser adds the recipes tab, "Allow for this task" answers the crossing, calls run there',
    async () => {
      await deps.useCloud();
      const recipesUrl = `${server.crossOriginUrl}/demo/recipes/`;
      const recipesHost = new URL(recipesUrl).host;
      const R = siteLabel(new URL(recipesUrl).origin);
      provider.script(
        { type: 'reply', toolCalls: [{ name: `${R}__get_ingredients`, input: { recipeId: 'shakshuka', servings: 2 } }] },
        { type: 'reply', toolCalls: [{ name: `${R}__search_recipes`, input: { query: 'soup' } }] },
        { type: 'reply', text: 'Shakshuka for two takes **4 eggs**.' },
      );
      const shop = await session.openWithExtensionPage(`${server.url}/demo/#/product/ceramic-mug`, 'sidepanel.html');
      const panel = shop.extensionPage;
      // Opened last, the recipes tab is the window's visible one: its timers run at full speed (docs/testing.md).
      const recipes = await session.browser.newPage();
      await recipes.goto(recipesUrl);
      const before = provider.requests.length;
      try {
        await waitFor('the panel to list the shop tools', async () => /Tools \(\d+\)/.test(await bodyText(panel)), 20_000);
        await run(panel, "() => document.querySelector('details.task-tabs summary').click()");
        // The chooser names the recipes tab once the router knows its site (it has just loaded).
        await waitFor(
          'the chooser to offer the recipes tab',
          async () => (await clickButton(panel, 'Refresh the list')) && (await clickButton(panel, `Add ${recipesHost}`)),
          20_000,
        );
        await waitFor('the task to hold two tabs', async () => (await bodyText(panel)).includes('Tabs in this task: 2'));

        await run(
          panel,
          `() => {
          const box = document.querySelector('textarea[aria-label="Message"]');
          box.value = 'How many eggs for a shakshuka for two?';
          box.dispatchEvent(new Event('input', { bubbles: true }));
          box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
        }`,
        );
        // The shop's data would go to the recipes site: the question names both and offers "Allow for this task".
        await waitFor('the boundary question', async () => (await card(panel, `${R}__get_ingredients`))?.asks, 30_000);
        const question = await bodyText(panel);
        assert(question.includes(`would go to ${recipesHost}`), 'the question does not name the recipes site');
        assert(await clickButton(panel, 'Allow for this task'), 'no "Allow for this task" button');
        await waitFor('the answer in the panel', async () => (await bodyText(panel)).includes('Shakshuka for two takes'), 30_000);
      } catch (error) {
        throw new Error(
          `${(error as Error).message}\n      the panel shows: ${(await bodyText(panel).catch(() => '')).replace(/\s+/g, ' ').slice(0, 600)}`,
        );
      }
      const read = await card(panel, `${R}__get_ingredients`);
      const search = await card(panel, `${R}__search_recipes`);
      assert(read?.state === 'done' && read.place?.startsWith(`on ${recipesHost}`), `the get_ingredients card: ${JSON.stringify(read)}`);
      // The same direction (shop → recipes) again: allowed for the task, it ran unasked.
      assert(
        search?.state === 'done' && search.place?.startsWith(`on ${recipesHost}`),
        `the search_recipes card: ${JSON.stringify(search)}`,
      );
      const sent = provider.requests.slice(before).filter((r) => r.path.endsWith('/chat/completions'));
      assert(
        JSON.stringify(readSent(sent[1]!).toolResults).includes('Shakshuka for 2'),
        'the ingredients did not come back from the recipes tab',
      );
      // The call ran in the recipes tab: its page searched.
      const hash = await run<string>(recipes, '() => location.hash');
      assert(hash.includes('soup'), `the recipes tab shows ${hash}`);
      await recipes.close();
      await panel.close();
      await shop.page.close();
    },
  );
}
