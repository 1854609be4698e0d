/**
 * `npm run audit`: audit a page's WebMCP tools in the real extension, headless, for CI (docs/audit.md). It builds
 * the extension when the build is missing or older than the sources, starts Chromium with it, opens the page and the
 * side panel bound to its tab, runs the same audit as the panel's Audit view, prints the findings (or the JSON report
 * with --json), and exits 1 when any finding is more serious than --max-severity (2 when the setup is wrong).
 *
 *   npm run audit -- --url demo
 *   npm run audit -- --url http://127.0.0.1:3000/ --max-severity warning --json > audit.json
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AUDIT_SEVERITIES, type AuditReport, type AuditSeverity } from '../lib/audit/audit-types';
import { formatAuditText } from '../lib/audit/format-audit-text';
import { isAbove } from '../lib/audit/run-audit';
import { errorMessage } from '../lib/shared/error-message';
import { CHROMIUM, EXTENSION_DIR, launchExtension, openSidePanel, tabIdOf } from '../tests/e2e/browser';
import { startStaticServer } from '../tests/servers/static-server';

const SOURCES = ['lib', 'components', 'entrypoints', 'public', 'wxt.config.ts', 'package.json'];

const USAGE = `npm run audit -- --url URL [options]
  --url URL             the page to audit; "demo" serves this repository's demo shop on 127.0.0.1
  --json                print the report as JSON (the Audit view's "Export JSON") instead of text
  --max-severity LEVEL  error | warning | info (default info): exit 1 when a finding is more serious than this
  --report FILE         also write the JSON report there
  --native              start Chromium with native WebMCP (--enable-features=WebMCP)
  --browser PATH        the Chromium to start (default $CHROMIUM_PATH or /usr/bin/chromium)
  --no-build            use the existing build in .output/chrome-mv3
Exit codes: 0 nothing above --max-severity, 1 findings above it, 2 the audit could not run.`;

const { values: options } = parseArgs({
  options: {
    url: { type: 'string' },
    json: { type: 'boolean', default: false },
    'max-severity': { type: 'string', default: 'info' },
    report: { type: 'string' },
    native: { type: 'boolean', default: false },
    browser: { type: 'string', default: CHROMIUM },
    'no-build': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function fail(message: string): never {
  console.error(`npm run audit: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** Progress goes to stderr, so that --json leaves stdout to the report alone. */
function say(message: string): void {
  console.error(message);
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
  say('Building the extension (wxt build)…');
  execFileSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['wxt', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function main(): Promise<number> {
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (!options.url) fail('--url is required.');
  const max = options['max-severity'] as AuditSeverity;
  if (!AUDIT_SEVERITIES.includes(max))
    fail(`--max-severity must be one of ${AUDIT_SEVERITIES.join(', ')}, not "${options['max-severity']}".`);
  if (options.url !== 'demo' && !/^https?:\/\//.test(options.url))
    fail(`--url must be an http(s) address or "demo", not "${options.url}".`);
  if (!existsSync(options.browser)) fail(`no browser at ${options.browser} (set --browser or CHROMIUM_PATH).`);

  buildIfNeeded();
  const demo = options.url === 'demo' ? await startStaticServer({ '/demo': 'demo' }) : undefined;
  const url = demo ? `${demo.url}/demo/` : options.url;
  const browser = await launchExtension({ native: options.native, executablePath: options.browser });
  try {
    const page = await browser.context.newPage();
    say(`Auditing ${url}…`);
    await page.goto(url, { waitUntil: 'load' });
    const panel = await openSidePanel(browser.context, browser.extensionId, await tabIdOf(browser.sw, page));
    await panel.waitForFunction(() => 'webmcpAgentAudit' in globalThis);
    const report = (await panel.evaluate(() => (globalThis as any).webmcpAgentAudit.run())) as AuditReport | undefined;
    if (!report) {
      console.error('npm run audit: the panel could not audit the page (it follows no tab).');
      return 2;
    }
    if (options.report) writeFileSync(options.report, `${JSON.stringify(report, null, 2)}\n`);
    console.log(options.json ? JSON.stringify(report, null, 2) : formatAuditText(report));
    const above = report.findings.filter((f) => isAbove(f.severity, max)).length;
    if (above > 0) {
      say(`${above} finding${above === 1 ? ' is' : 's are'} more serious than --max-severity ${max}.`);
      return 1;
    }
    return 0;
  } finally {
    await browser.close();
    await demo?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`npm run audit: ${errorMessage(error)}`);
    process.exit(2);
  },
);
