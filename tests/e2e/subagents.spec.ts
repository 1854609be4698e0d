/**
 * Sub-agents in the built extension, on the demo shop, with a scripted cloud model (the loopback provider): the
 * site profile comes from the options page's demo example, the site's agent delegates checking out to its
 * "checkout" sub-agent, the nested run shows under the delegate call with its own tool cards, check_out asks
 * for the person's Allow inside it, and the nesting survives a panel reload.
 */
import { readSent } from '../servers/provider-server';
import { toolCard } from './browser';
import { expect, expectAccessible, openShopWithPanel, screenshot, test, useCloud } from './sidepanel-helpers';

test.describe.configure({ timeout: 120_000 });

/** A tool card by its tool's name, within `scope` (the panel, or a nested run in it). */
test('the site’s agent delegates checkout; the nested run, its confirmation and its tool cards show in the panel and survive a reload', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  openOptions,
}) => {
  await useCloud(serviceWorker, provider);
  const origin = new URL(server.url).origin;

  // The person takes the demo shop's example on the options page, for the shop's origin here.
  const options = await openOptions();
  await options.getByRole('button', { name: 'Add a site' }).click();
  await options.getByLabel('Origin', { exact: true }).fill(origin);
  await options.getByRole('button', { name: 'Use the demo shop’s example' }).click();
  await expect(options.getByRole('region', { name: 'Checkout' }).getByLabel('Id')).toHaveValue('checkout');
  await options.getByRole('button', { name: 'Add site', exact: true }).click();
  await expect(options.getByText(`Added ${origin}.`)).toBeVisible();
  await expect(options.getByText('Sub-agents: Checkout (get_cart, check_out)')).toBeVisible();
  await options.close();

  const buyer = { name: 'Ada Lovelace', email: 'ada@example.com' };
  provider.script(
    // The site's agent: open the mug, add it, then hand checking out to the checkout agent.
    { type: 'reply', toolCalls: [{ name: 'open_product', input: { productId: 'ceramic-mug' } }] },
    { type: 'reply', toolCalls: [{ name: 'add_to_cart', input: {} }] },
    { type: 'reply', toolCalls: [{ name: 'delegate_to_checkout', input: { task: `Check out for ${buyer.name}, ${buyer.email}.` } }] },
    // The checkout agent: read the cart, check out, report.
    { type: 'reply', toolCalls: [{ name: 'get_cart', input: {} }] },
    { type: 'reply', toolCalls: [{ name: 'check_out', input: buyer }] },
    { type: 'reply', text: 'Order placed for the Stoneware Mug.' },
    // The site's agent again, with the checkout agent's answer.
    { type: 'reply', text: 'Done: the checkout agent placed your order.' },
  );
  const { shop, panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.setViewportSize({ width: 420, height: 800 });
  await panel.getByRole('textbox', { name: 'Message' }).fill('Buy the ceramic mug for Ada Lovelace, ada@example.com');
  await panel.getByRole('button', { name: 'Send' }).click();
  // add_to_cart is not marked read-only: under the default policy the person allows it first.
  await toolCard(panel, 'add_to_cart').getByRole('button', { name: 'Allow once' }).click({ timeout: 60_000 });

  const delegate = toolCard(panel, 'delegate_to_checkout');
  const nested = delegate.getByRole('region', { name: 'Sub-agent checkout' });
  const checkOut = toolCard(nested, 'check_out');
  await expect(checkOut.locator('.tool-state')).toHaveText('waiting for you', { timeout: 60_000 });
  await expect(checkOut.locator('fieldset.confirm')).toContainText(/Allow check_out on 127\.0\.0\.1:\d+\?/);
  await expect(toolCard(nested, 'get_cart').locator('.tool-state')).toHaveText('done');
  await expect(delegate.locator('summary .tool-state').first()).toHaveText('running');
  await expect(shop).not.toHaveURL(/#\/order\//);
  await screenshot(panel, 'panel-subagent-confirmation');
  await expectAccessible(panel);

  await checkOut.getByRole('button', { name: 'Allow once' }).click();
  await expect(panel.locator('.conversation').getByText('Done: the checkout agent placed your order.')).toBeVisible({ timeout: 60_000 });
  await expect(checkOut.locator('.tool-state')).toHaveText('done');
  await expect(delegate.locator('summary .tool-state').first()).toHaveText('done');
  await expect(nested.getByText('Order placed for the Stoneware Mug.')).toBeVisible();
  await expect(shop).toHaveURL(/#\/order\//);

  // What each agent saw: the site's agent its own tools and the delegate tool; the checkout agent only its two.
  const generations = provider.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const toolsOf = (i: number) =>
    readSent(generations[i])
      .tools.map((t) => t.name)
      .sort();
  expect(toolsOf(2)).toContain('delegate_to_checkout');
  expect(toolsOf(2)).not.toContain('check_out');
  expect(toolsOf(3)).toEqual(['check_out', 'get_cart']);
  expect(readSent(generations[3]).system).toContain('You place the order for the cart.');
  expect(JSON.stringify(generations[6].body)).toContain('Order placed for the Stoneware Mug.');

  await panel.reload();
  const again = toolCard(panel, 'delegate_to_checkout');
  await expect(again.locator('summary .tool-state').first()).toHaveText('done');
  const restored = again.getByRole('region', { name: 'Sub-agent checkout' });
  await expect(toolCard(restored, 'get_cart').locator('.tool-state')).toHaveText('done');
  await expect(toolCard(restored, 'check_out').locator('.tool-state')).toHaveText('done');
  await expect(restored.getByText('Order placed for the Stoneware Mug.')).toBeVisible();
  await expect(panel.locator('.conversation').getByText('Done: the checkout agent placed your order.')).toBeVisible();
});
