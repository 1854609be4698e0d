/**
 * docs/security.md § 6 in the built extension: a value the schema marks secret (`format: password`, at any depth)
 * or the person marks secret is masked, and the API key redacted, in the transcript exports, the Develop view's
 * timeline and its Copy, and the eval report, judged by the schema each call was made under: the page here
 * (tests/fixtures/pages/login.html) drops its login and payment tools once used, as a page does after you sign in.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { writeSecretEvals } from '../fixtures/secret-evals';
import { API_KEY, expect, test, useCloud } from './sidepanel-helpers';

test.describe.configure({ timeout: 120_000 });

const PASSWORD = 'hunter2-correct-horse';
const CARD = '4111111111111111';
const CVV = '0427';

/** The login page and a side panel bound to it, once the panel shows its two tools. */
async function openLoginWithPanel(context: BrowserContext, serverUrl: string, openSidePanel: (page: Page) => Promise<Page>) {
  const page = await context.newPage();
  await page.goto(`${serverUrl}/login.html`);
  const panel = await openSidePanel(page);
  await expect(panel.getByRole('button', { name: 'Tools (2)' })).toBeVisible({ timeout: 20_000 });
  return { page, panel };
}

/** Clicks `button` and returns the text of the file it downloads. */
async function download(panel: Page, click: () => Promise<void>): Promise<string> {
  const saved = panel.waitForEvent('download');
  await click();
  return readFileSync((await (await saved).path())!, 'utf8');
}

/** What every timeline entry's "Copy as JSON" puts on the clipboard (the clipboard itself is stubbed in the panel). */
async function copyEveryEntry(panel: Page): Promise<string[]> {
  await panel.evaluate(() => {
    const copied: string[] = [];
    (globalThis as { copied?: string[] }).copied = copied;
    navigator.clipboard.writeText = async (text: string) => void copied.push(text);
  });
  const buttons = panel.locator('.timeline-entry').getByRole('button', { name: 'Copy as JSON' });
  for (const button of await buttons.all()) await button.click();
  return panel.evaluate(() => (globalThis as { copied?: string[] }).copied ?? []);
}

/** Asserts none of the secrets is in `text`, and that the mask is. */
function expectMasked(text: string) {
  expect(text).toContain('[redacted]');
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain(`"${CVV}"`);
  expect(text).not.toContain(`cvv ${CVV}`);
  expect(text).not.toContain(API_KEY);
}

test('the agent’s password and nested cvv stay masked in both exports, the timeline and its Copy, after the page dropped the tools', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'log_in', input: { username: 'ada', password: PASSWORD } }] },
    { type: 'reply', toolCalls: [{ name: 'pay_by_card', input: { amount: 5, card: { number: CARD, cvv: CVV } } }] },
    { type: 'reply', text: `Signed in with ${PASSWORD} and paid with cvv ${CVV}. Your key is ${API_KEY}.` },
  );
  await useCloud(serviceWorker, provider);
  const { page, panel } = await openLoginWithPanel(context, server.url, openSidePanel);
  await panel.getByRole('textbox', { name: 'Message' }).fill('Sign in as ada and pay 5');
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByRole('region', { name: 'Conversation' }).getByText('Signed in with')).toBeVisible({ timeout: 60_000 });
  // The secrets reached the page, and the page then dropped both forms' tools.
  expect(await page.evaluate(() => (globalThis as { seen?: string[] }).seen)).toEqual([PASSWORD, CVV]);
  await expect(panel.getByRole('button', { name: 'Tools (0)' })).toBeVisible({ timeout: 20_000 });

  await panel.locator('details.menu summary').click();
  const markdown = await download(panel, () => panel.getByRole('button', { name: 'Conversation as Markdown' }).click());
  // Open whether or not the first choice closed it.
  await panel.locator('details.menu').evaluate((menu) => {
    (menu as HTMLDetailsElement).open = true;
  });
  const json = await download(panel, () => panel.getByRole('button', { name: 'Conversation as JSON' }).click());
  for (const text of [markdown, json]) {
    expectMasked(text);
    expect(text).toContain('ada');
    // Not marked secret: the card number is exported (the schema decides, not a guess).
    expect(text).toContain(CARD);
  }
  const calls = JSON.parse(json).messages.flatMap((m: { parts: { type: string }[] }) => m.parts.filter((p) => p.type === 'tool'));
  expect(calls.map((c: { input: unknown }) => c.input)).toEqual([
    { username: 'ada', password: '[redacted]' },
    { amount: 5, card: { number: CARD, cvv: '[redacted]' } },
  ]);

  await panel.getByRole('button', { name: 'Develop' }).click();
  await expect(panel.locator('.timeline-entry[data-state="done"]')).toHaveCount(2);
  expectMasked((await panel.locator('.timeline').textContent()) ?? '');
  const copies = await copyEveryEntry(panel);
  expect(copies).toHaveLength(2);
  for (const copy of copies) expectMasked(copy);
  expect(copies.map((c) => JSON.parse(c).input)).toEqual([
    { amount: 5, card: { number: CARD, cvv: '[redacted]' } },
    { username: 'ada', password: '[redacted]' },
  ]);
});

test('calls run by hand are masked in the timeline and its Copy, what the person marked secret too', async ({
  context,
  server,
  openSidePanel,
}) => {
  const { page, panel } = await openLoginWithPanel(context, server.url, openSidePanel);
  await panel.getByRole('button', { name: 'Tools (2)' }).click();
  const inspect = async (name: string) => {
    const tool = panel.locator('.tool-inspect').filter({ has: panel.locator('summary h3', { hasText: new RegExp(`^${name}$`) }) });
    await tool.locator('summary').click();
    return tool.getByRole('form', { name: `Run ${name} by hand` });
  };
  const pay = await inspect('pay_by_card');
  await pay.getByLabel('amount').fill('5');
  await pay.getByLabel('card').fill(JSON.stringify({ number: CARD, cvv: CVV }));
  await pay.getByRole('button', { name: 'Run pay_by_card' }).click();
  // Paid: the page drops the payment form's tool (and the panel its form).
  await expect(panel.getByRole('button', { name: 'Tools (1)' })).toBeVisible({ timeout: 20_000 });

  const logIn = await inspect('log_in');
  // The person marks the username secret as well.
  await logIn.locator('.hand-run-field', { hasText: 'username' }).getByLabel('Secret (masked in exports)').check();
  await logIn.getByLabel('username').fill('ada-the-person');
  await logIn.getByLabel('password').fill(PASSWORD);
  await logIn.getByRole('button', { name: 'Run log_in' }).click();
  await expect(panel.getByRole('button', { name: 'Tools (0)' })).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => (globalThis as { seen?: string[] }).seen)).toEqual([CVV, PASSWORD]);

  await panel.getByRole('button', { name: 'Develop' }).click();
  await expect(panel.locator('.timeline-entry[data-state="done"]')).toHaveCount(2);
  // The page's echo came back through the host's timeline: redacted there too.
  await expect(panel.locator('.timeline-entry').filter({ hasText: 'pay_by_card' })).toContainText('cvv [redacted]');
  const shown = (await panel.locator('.timeline').textContent()) ?? '';
  expectMasked(shown);
  expect(shown).not.toContain('ada-the-person');
  const copies = await copyEveryEntry(panel);
  for (const copy of copies) {
    expectMasked(copy);
    expect(copy).not.toContain('ada-the-person');
  }
  expect(copies.map((c) => JSON.parse(c).input)).toEqual([
    { username: '[redacted]', password: '[redacted]' },
    { amount: 5, card: { number: CARD, cvv: '[redacted]' } },
  ]);
});

test('the exported eval report masks secret arguments, expected and actual, and holds no API key', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  const EXPECTED = 'expected-pass-9876';
  const evals = writeSecretEvals({ password: EXPECTED, payArguments: { amount: 5, card: { number: CARD, cvv: CVV } } });
  provider.script(
    // Signs in with another password than expected: fails, and the report's differences quote both.
    { type: 'reply', toolCalls: [{ name: 'log_in', input: { username: 'ada', password: PASSWORD } }] },
    { type: 'reply', text: `Signed in with ${PASSWORD}. Your key is ${API_KEY}.` },
    { type: 'reply', toolCalls: [{ name: 'pay_by_card', input: { amount: 5, card: { number: CARD, cvv: CVV } } }] },
    { type: 'reply', text: 'Paid.' },
  );
  await useCloud(serviceWorker, provider);
  const { panel } = await openLoginWithPanel(context, server.url, openSidePanel);
  await expect(panel.getByRole('combobox', { name: 'Agent' })).toHaveValue('cloud');
  await panel.getByRole('button', { name: 'Develop' }).click();
  await panel.getByLabel('Eval file').setInputFiles(evals);
  await expect(panel.getByLabel('Starting URL')).toHaveValue(`${server.url}/login.html`);
  await panel.getByRole('button', { name: 'Run 2 cases' }).click();
  await expect(panel.getByRole('status').filter({ hasText: /passed\.$/ })).toHaveText('1 of 2 passed.', { timeout: 90_000 });
  // The results table is a view too: its differences quote both passwords, and the final answer repeats one.
  const table = panel.getByRole('table', { name: 'Eval results' });
  await table.locator('details summary').first().click();
  const shown = (await table.textContent()) ?? '';
  expect(shown).toContain('arguments:');
  expect(shown).toContain('[redacted]');
  for (const secret of [PASSWORD, EXPECTED, CVV]) expect(shown).not.toContain(secret);

  const text = await download(panel, () => panel.getByRole('button', { name: 'Export report' }).click());
  expectMasked(text);
  expect(text).not.toContain(EXPECTED);
  const report = JSON.parse(text);
  expect(report.summary).toMatchObject({ total: 2, passed: 1, failed: 1 });
  const [signIn, pay] = report.cases;
  expect(signIn.actual[0].args).toEqual({ username: 'ada', password: '[redacted]' });
  expect(signIn.score.rows[0].expected.arguments).toEqual({ username: 'ada', password: '[redacted]' });
  expect(signIn.score.rows[0].differences.join(' ')).toContain('password');
  expect(pay.actual[0].args).toEqual({ amount: 5, card: { number: CARD, cvv: '[redacted]' } });
  expect(pay.score.rows[0].expected.arguments).toEqual({ amount: 5, card: { number: CARD, cvv: '[redacted]' } });
});
