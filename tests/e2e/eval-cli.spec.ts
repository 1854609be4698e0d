import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type ProviderServer, type ScriptedReply, startProviderServer } from '../servers/provider-server';
import { startStaticServer } from '../servers/static-server';
import { writeSecretEvals } from '../fixtures/secret-evals';

const KEY = 'sk-eval-cli-key';

/** Two of demo/evals.json's four cases pass with these replies (the same script as the panel's eval E2E). */
const TWO_OF_FOUR: ScriptedReply[] = [
  { type: 'reply', toolCalls: [{ name: 'search_products', input: { query: 'mug' } }] },
  { type: 'reply', text: 'Yes: the ceramic mug.' },
  { type: 'reply', toolCalls: [{ name: 'get_cart', input: {} }] },
  { type: 'reply', text: 'Your cart is empty.' },
  { type: 'reply', toolCalls: [{ name: 'open_product', input: { productId: 'merino-tee' } }] },
  { type: 'reply', text: 'Done.' },
  { type: 'reply', text: 'I cannot do that.' },
];

/** Runs the eval runner as a site author's CI would (`npm run eval -- …`), and collects what it prints and how it exits. */
function runCli(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', 'scripts/eval.ts', '--no-build', ...args], {
      env: { ...process.env, WEBMCP_AGENT_API_KEY: KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The demo shop's evals against the loopback provider. */
const runEval = (provider: ProviderServer, args: string[]) =>
  runCli([
    '--evals',
    'demo/evals.json',
    '--url',
    'demo',
    '--provider',
    'openai-compatible',
    '--base-url',
    `${provider.url}/v1`,
    '--model',
    'gpt-test',
    ...args,
  ]);

test.describe.configure({ timeout: 180_000 });

let provider: ProviderServer;
test.beforeAll(async () => {
  provider = await startProviderServer({ apiKey: KEY });
});
test.afterAll(async () => {
  await provider.close();
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a test's fixtures from this pattern; these need none.
test('npm run eval prints one line per case and a summary, and exits by its threshold', async ({}, testInfo) => {
  test.skip(testInfo.project.name === 'native', 'The runner starts its own browser; one project is enough.');
  provider.script(...TWO_OF_FOUR);
  const report = join(mkdtempSync(join(tmpdir(), 'eval-cli-')), 'report.json');
  const below = await runEval(provider, ['--min-pass', '0.75', '--report', report]);
  expect(below.out).toContain('PASS  Find mugs (1/1 calls)');
  expect(below.out).toContain('PASS  Read the cart without buying (1/1 calls)');
  expect(below.out).toMatch(/FAIL {2}Add a medium linen shirt .*productId: expected "linen-shirt", got "merino-tee"/);
  expect(below.out).toMatch(/FAIL {2}Two products, any order .*not called/);
  expect(below.out).toContain('2 passed, 2 failed');
  expect(below.out).toContain('Pass rate 50% is below --min-pass 75%.');
  expect(below.code).toBe(1);
  expect(JSON.parse(readFileSync(report, 'utf8')).summary).toMatchObject({ total: 4, passed: 2 });
  // The key went to the provider, and nowhere it could be read back.
  expect(provider.requests.find((r) => r.path.endsWith('/chat/completions'))?.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(below.out).not.toContain(KEY);

  provider.reset();
  provider.script(...TWO_OF_FOUR);
  const met = await runEval(provider, ['--min-pass', '0.5']);
  expect(met.out).toContain('2 passed, 2 failed');
  expect(met.code).toBe(0);
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a test's fixtures from this pattern; these need none.
test('npm run eval refuses a broken eval file with where each problem is, before starting a browser', async ({}, testInfo) => {
  test.skip(testInfo.project.name === 'native', 'No browser involved.');
  const dir = mkdtempSync(join(tmpdir(), 'eval-cli-'));
  const file = join(dir, 'broken.json');
  writeFileSync(file, JSON.stringify([{ name: 'x', messages: [], expectedCall: [{ functionName: '' }] }]));
  const result = await runCli(['--evals', file, '--url', 'demo']);
  expect(result.code).toBe(2);
  expect(result.out).toContain('case 1 ("x") › messages: must be a non-empty list');
  expect(result.out).toContain('case 1 ("x") › expectedCall[0].functionName: must name the tool');
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a test's fixtures from this pattern; these need none.
test('npm run eval --report masks secret arguments at any depth and prints and writes no key (docs/security.md § 6)', async ({}, testInfo) => {
  test.skip(testInfo.project.name === 'native', 'The runner starts its own browser; one project is enough.');
  const PASSWORD = 'hunter2-cli-secret';
  const EXPECTED = 'expected-cli-secret';
  const CVV = '0427';
  const pages = await startStaticServer({ '/': 'tests/fixtures/pages' });
  try {
    const evals = writeSecretEvals({ password: EXPECTED, payArguments: { card: { cvv: '0999' } } });
    provider.script(
      { type: 'reply', toolCalls: [{ name: 'log_in', input: { username: 'ada', password: PASSWORD } }] },
      { type: 'reply', text: `Signed in. Your key is ${KEY}.` },
      { type: 'reply', toolCalls: [{ name: 'pay_by_card', input: { amount: 5, card: { number: '4111111111111111', cvv: CVV } } }] },
      { type: 'reply', text: 'Paid.' },
    );
    const report = join(dirname(evals), 'report.json');
    const result = await runCli([
      '--evals',
      evals,
      '--url',
      `${pages.url}/login.html`,
      '--provider',
      'openai-compatible',
      '--base-url',
      `${provider.url}/v1`,
      '--model',
      'gpt-test',
      '--min-pass',
      '0',
      '--report',
      report,
    ]);
    // Both cases fail on the secret argument, and say so without quoting it.
    expect(result.out).toMatch(/FAIL {2}Sign in .*password: expected "\[redacted\]", got "\[redacted\]"/);
    expect(result.out).toContain('0 passed, 2 failed');
    expect(result.code).toBe(0);
    const written = readFileSync(report, 'utf8');
    for (const text of [result.out, written]) {
      for (const secret of [PASSWORD, EXPECTED, KEY, `"${CVV}"`, '"0999"']) expect(text).not.toContain(secret);
    }
    const cases = JSON.parse(written).cases;
    expect(cases[0].actual[0].args).toEqual({ username: 'ada', password: '[redacted]' });
    expect(cases[1].actual[0].args).toEqual({ amount: 5, card: { number: '4111111111111111', cvv: '[redacted]' } });
  } finally {
    await pages.close();
  }
});
