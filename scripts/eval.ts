/**
 * `npm run eval`: run a webmcp-evals file against a page in the real extension, headless, for CI. It builds the
 * extension when the build is missing or older than the sources, starts Debian's/your Chromium with it, points the
 * agent at the provider you name, opens the page and the side panel, runs the same eval code as the panel's Develop
 * view, prints one line per case and a summary, and exits non-zero when fewer cases pass than --min-pass asks.
 *
 *   npm run eval -- --evals demo/evals.json --url demo --provider openai-compatible --base-url http://127.0.0.1:11434/v1 --model qwen3
 *
 * The API key comes from the WEBMCP_AGENT_API_KEY environment variable, never from the command line (other users of
 * the machine can read a process's arguments). See README.md § For site authors.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { parseEvalFile } from '../lib/evals/parse-eval-file';
import { type EvalReport, formatEvalReport } from '../lib/evals/to-eval-report';
import { startStaticServer } from '../tests/servers/static-server';
import { errorMessage } from '../lib/shared/error-message';

const EXTENSION_DIR = resolve('.output/chrome-mv3');
const SOURCES = ['lib', 'components', 'entrypoints', 'public', 'wxt.config.ts', 'package.json'];
const PROVIDERS = ['openai', 'openai-compatible', 'anthropic', 'local'] as const;

const USAGE = `npm run eval -- --evals FILE --url URL [options]
  --evals FILE        an eval file in the webmcp-evals format (a JSON list of cases)
  --url URL           the page every case starts on; "demo" serves this repository's demo shop on 127.0.0.1
  --provider NAME     ${PROVIDERS.join(' | ')} (default: what the browser profile has; a fresh profile has none)
  --base-url URL      the provider's base URL (openai-compatible: required; e.g. http://127.0.0.1:11434/v1)
  --model ID          the model id (cloud providers)
  --native            start Chromium with native WebMCP (--enable-features=WebMCP)
  --min-pass SHARE    exit 1 when fewer than this share of cases pass, 0 to 1 (default 1: every case)
  --confirm ANSWER    how the runner answers the agent's confirmations: allow (default) or deny
  --report FILE       also write the JSON report there
  --profile DIR       a browser profile to use (keeps a downloaded on-device model); default a fresh one
  --browser PATH      the Chromium to start (default $CHROMIUM_PATH or /usr/bin/chromium)
  --no-build          use the existing build in .output/chrome-mv3
The key for a cloud provider comes from WEBMCP_AGENT_API_KEY.`;

const { values: options } = parseArgs({
  options: {
    evals: { type: 'string' },
    url: { type: 'string' },
    provider: { type: 'string' },
    'base-url': { type: 'string' },
    model: { type: 'string' },
    native: { type: 'boolean', default: false },
    'min-pass': { type: 'string', default: '1' },
    confirm: { type: 'string', default: 'allow' },
    report: { type: 'string' },
    profile: { type: 'string' },
    browser: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    'no-build': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function fail(message: string): never {
  console.error(`npm run eval: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function newestSource(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

function buildIfNeeded(): void {
  const manifest = join(EXTENSION_DIR, 'manifest.json');
  if (options['no-build']) {
    if (!existsSync(manifest)) fail(`--no-build, but there is no build in ${EXTENSION_DIR}: run "npm run build" first.`);
    return;
  }
  const built = existsSync(manifest) ? statSync(manifest).mtimeMs : 0;
  if (built > Math.max(...SOURCES.map(newestSource))) return;
  console.log('Building the extension (wxt build)…');
  execFileSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['wxt', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function main(): Promise<number> {
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (!options.evals) fail('--evals is required.');
  if (!options.url) fail('--url is required.');
  const minPass = Number(options['min-pass']);
  if (!(minPass >= 0 && minPass <= 1)) fail(`--min-pass must be a share from 0 to 1, not "${options['min-pass']}".`);
  if (options.confirm !== 'allow' && options.confirm !== 'deny') fail(`--confirm must be allow or deny, not "${options.confirm}".`);
  const provider = options.provider as (typeof PROVIDERS)[number] | undefined;
  if (provider && !PROVIDERS.includes(provider)) fail(`--provider must be one of ${PROVIDERS.join(', ')}.`);
  if (provider === 'openai-compatible' && !options['base-url']) fail('--provider openai-compatible needs --base-url.');
  if (provider && provider !== 'local' && !options.model) fail(`--provider ${provider} needs --model.`);
  const apiKey = process.env.WEBMCP_AGENT_API_KEY ?? '';
  if (provider && provider !== 'local' && provider !== 'openai-compatible' && !apiKey)
    fail(`--provider ${provider} needs WEBMCP_AGENT_API_KEY.`);

  let fileText: string;
  try {
    fileText = readFileSync(options.evals, 'utf8');
  } catch (error) {
    fail(`cannot read ${options.evals}: ${(error as Error).message}`);
  }
  const parsed = parseEvalFile(fileText);
  if (!parsed.ok) fail(`${options.evals} cannot be run:\n  ${parsed.errors.join('\n  ')}`);

  buildIfNeeded();
  const demo = options.url === 'demo' ? await startStaticServer({ '/demo': 'demo' }) : undefined;
  const url = demo ? `${demo.url}/demo/` : options.url;
  const profile = options.profile ?? mkdtempSync(join(tmpdir(), 'webmcp-agent-eval-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: options.browser,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      ...(options.native ? ['--enable-features=WebMCP'] : []),
    ],
  });
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
    // Chrome's page-world stub is registered at run time: pages opened before that would have no modelContext.
    await worker.evaluate(() => (globalThis as { pageStubReady?: Promise<unknown> }).pageStubReady);
    const extensionId = new URL(worker.url()).host;
    if (provider) {
      // Stored the way the options page stores them (lib/storage/settings-store.ts).
      await worker.evaluate(
        ([kind, baseURL, model, key]) =>
          chrome.storage.local.set(
            (kind === 'local'
              ? { 'settings.mode': 'local' }
              : {
                  'settings.mode': 'cloud',
                  'settings.cloud': { provider: kind, ...(baseURL ? { baseURL } : {}), model },
                  ...(key ? { [`secret.apiKey.${kind}`]: key, [`settings.apiKeyMask.${kind}`]: `${key.slice(0, 3)}…` } : {}),
                }) as Record<string, unknown>,
          ),
        [provider, options['base-url'] ?? '', options.model ?? '', apiKey] as const,
      );
    }
    const page = await context.newPage();
    await page.goto(url);
    const tabId = await worker.evaluate(async (href) => (await chrome.tabs.query({})).find((t) => t.url === href)?.id, page.url());
    if (tabId === undefined) throw new Error(`no tab shows ${url}`);
    const panel = await context.newPage();
    await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?tab=${tabId}`);
    await panel.waitForFunction(() => 'webmcpAgentEvals' in globalThis);
    console.log(`Running ${parsed.cases.length} cases from ${options.evals} on ${url}…`);
    const outcome = (await panel.evaluate(
      ([text, start, confirm]) =>
        (globalThis as any).webmcpAgentEvals.run(text, start, { confirm: confirm === 'deny' ? 'deny' : 'allow-once' }),
      [fileText, url, options.confirm] as const,
    )) as { ok: true; report: EvalReport } | { ok: false; errors: string[] };
    if (!outcome.ok) {
      console.error(`The evals could not run:\n  ${outcome.errors.join('\n  ')}`);
      return 2;
    }
    console.log(formatEvalReport(outcome.report));
    if (options.report) writeFileSync(options.report, `${JSON.stringify(outcome.report, null, 2)}\n`);
    const rate = outcome.report.summary.passRate;
    if (rate < minPass) {
      console.log(`Pass rate ${(rate * 100).toFixed(0)}% is below --min-pass ${(minPass * 100).toFixed(0)}%.`);
      return 1;
    }
    return 0;
  } finally {
    await context.close();
    await demo?.close();
    if (!options.profile) rmSync(profile, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`npm run eval: ${errorMessage(error)}`);
    process.exit(2);
  },
);
