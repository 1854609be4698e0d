/**
 * The on-device loop in a task across tabs (docs/security.md § 8): offered the pooled tools of the shop's tab and
 * the recipes tab the person added (ranked by lib/agent/rank-tools.ts, each under its site-qualified name), the
 * scripted test model calls a tool of the other tab, which runs there after the person allows the crossing.
 */
import { toolCard } from './browser';
import { expect, test } from './fixtures';
import { downloadModel, openPageWithPanel, send, startTestModelHost, useModelHost } from './local-helpers';

test.describe.configure({ timeout: 180_000 });
test.skip(
  ({ nativeWebMCP }) => nativeWebMCP,
  'The engine runs the same on both WebMCP paths (page tools on the native path: bridge-*.spec.ts); the polyfill project covers it.',
);

test('the on-device model, offered two tabs’ tools, calls the recipes tab’s tool, and it runs there', async ({
  context,
  server,
  serviceWorker,
  extensionId,
}) => {
  const recipesUrl = `${server.crossOriginUrl}/demo/recipes/`;
  const recipesHost = new URL(recipesUrl).host;
  const name = `${recipesHost.replace(/[^a-z0-9]+/g, '_')}__get_ingredients`;
  const host = await startTestModelHost({
    reply: `<tool_call>\n{"name": "${name}", "arguments": {"recipeId": "shakshuka", "servings": 2}}\n</tool_call>`,
    afterToolResult: 'Shakshuka for two: the ingredients came from the recipes tab.',
    // A token per byte: two tabs' tools (the ranked share of them) and a recipe's ingredients.
    contextTokens: 16_384,
  });
  try {
    await useModelHost(serviceWorker, host);
    const recipes = await context.newPage();
    await recipes.goto(recipesUrl);
    const { panel } = await openPageWithPanel(context, serviceWorker, extensionId, `${server.url}/demo/`);
    await downloadModel(panel);

    await panel.locator('details.task-tabs summary').click();
    await panel.getByRole('button', { name: new RegExp(`^Add ${recipesHost.replace('.', '\\.')}\\b`) }).click();
    await expect(panel.locator('details.task-tabs summary')).toHaveText('Tabs in this task: 2');

    await send(panel, 'Which ingredients does a shakshuka recipe for two need?');
    // The shop's site data would go to the recipes site: the person allows the crossing for the task.
    const card = toolCard(panel, name);
    await expect(card.locator('fieldset.confirm')).toContainText(`would go to ${recipesHost}`, { timeout: 90_000 });
    await card.getByRole('button', { name: 'Allow for this task' }).click();
    await expect(card.locator('.tool-state')).toHaveText('done', { timeout: 60_000 });
    await expect(card.locator('.tool-place')).toContainText(`on ${recipesHost}`);
    await expect(panel.locator('.conversation .markdown').last()).toContainText('the ingredients came from the recipes tab', {
      timeout: 60_000,
    });
    // The recipes tab stayed where it was: a read, run in that tab.
    expect(recipes.url()).toBe(recipesUrl);
  } finally {
    await host.close();
  }
});
