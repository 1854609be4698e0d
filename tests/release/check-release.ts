/**
 * The release test (`npm run test:release`, a phase of `npm test`): makes the release once (`npm run release`) and
 * tests each package as what it is, the way a person gets it.
 *
 * - The Chrome Web Store zip, unpacked into a fresh Chromium profile: no development `key` (so a store-like id), none
 *   of the tests' hooks, otherwise the files of the build the E2E tests load; it lists the demo shop's tools and runs
 *   one through the panel (cloud mode against the loopback provider).
 * - The addons.mozilla.org zip: `web-ext lint` (0 errors; only the warnings the README explains), installed as it
 *   is into a fresh firefox-esr (its page stub runs), and with the Firefox smoke's test hook added to a copy, the same
 *   errand through the sidebar's page.
 * - The bridge's npm tarball, installed with npm into an empty prefix: `--help`, `--version`, `install` into a
 *   temporary home, `status`, `install --extension-id` with the id the Chrome store copy got, and a bad id refused.
 *
 * Exits non-zero when any check fails and ends with "N passed, N failed"; each check's time goes to
 * test-reports/release.json for the summary `npm test` prints.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { assert, createCheckRun } from '../shared/check-run';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { Page as PlaywrightPage } from '@playwright/test';
import extractZip from 'extract-zip';
import puppeteer from 'puppeteer-core';
import { CHROME_EXTENSION_ID, FIREFOX_EXTENSION_ID, NATIVE_HOST_NAME } from '../../bridge/src/extension-ids';
import { E2E_TEST_HOOK_NAMES } from '../../lib/background/install-e2e-test-hooks';
import { releaseFiles } from '../../scripts/release-files';
import { CHROMIUM, findServiceWorker, launchBrowser, openSidePanel, tabIdOf, toolCard } from '../e2e/browser';
import { FIREFOX, launchFirefox, run, waitFor } from '../firefox/launch-firefox';
import { type ProviderServer, startProviderServer } from '../servers/provider-server';
import { type StaticServer, startStaticServer } from '../servers/static-server';

/** What only the tests' builds may carry: the worker's test globals (install-e2e-test-hooks.ts) and the Firefox smoke's hook. */
const TEST_HOOKS = [...E2E_TEST_HOOK_NAMES, 'webmcp-e2e-open', 'e2e-hook'];

/** The AMO zip's `web-ext lint` warnings the README explains (its Firefox section), by code and file. */
const EXPLAINED_WARNINGS: { code: string; file: RegExp; why: string }[] = [
  { code: 'DANGEROUS_EVAL', file: /^background\.js$/, why: "the AI SDK's schema library probing for eval" },
  { code: 'DANGEROUS_EVAL', file: /^ort\/ort-wasm-simd-threaded\.asyncify\.mjs$/, why: "onnxruntime-web's Emscripten glue" },
  { code: 'DANGEROUS_EVAL', file: /^assets\/engine-worker-[\w-]+\.js$/, why: 'the same glue in the engine Worker' },
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^assets\/engine-worker-[\w-]+\.js$/, why: 'onnxruntime-web importing its packaged loader' },
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^chunks\/render-markdown-[\w-]+\.js$/, why: 'DOMPurify parsing in an inert document' },
  // The chunk Preact is in is named after one of its modules, which moves as the pages' code does.
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^chunks\/(?!render-markdown-)[\w-]+\.js$/, why: "Preact's dangerouslySetInnerHTML" },
];

const API_KEY = 'sk-release-test';

const { check, crashed, finish } = createCheckRun();

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The files of two builds that differ (or exist in one only). */
function differences(a: string, b: string): string[] {
  const left = filesUnder(a);
  const right = filesUnder(b);
  const names = [...new Set([...left, ...right])].sort();
  return names.filter(
    (name) => !left.includes(name) || !right.includes(name) || !readFileSync(join(a, name)).equals(readFileSync(join(b, name))),
  );
}

/** The files under `dir` whose text names a test hook, with the hook. */
function hooksIn(dir: string): string[] {
  const found: string[] = [];
  for (const name of filesUnder(dir)) {
    if (!/\.(js|mjs|html|json)$/.test(name)) continue;
    const text = readFileSync(join(dir, name), 'utf8');
    for (const hook of TEST_HOOKS) if (text.includes(hook)) found.push(`${name}: ${hook}`);
  }
  return found;
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(path: string): { width: number; height: number } {
  const data = readFileSync(path);
  assert(data.subarray(1, 4).toString() === 'PNG', `${path} is not a PNG`);
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** The errand a person tries first, in the Chrome panel's page: ask for a mug, the agent searches the shop. */
async function chromeErrand(panel: PlaywrightPage, shop: PlaywrightPage, provider: ProviderServer): Promise<void> {
  await panel.getByRole('button', { name: /^Tools \(\d+\)$/ }).waitFor({ timeout: 30_000 });
  await panel.getByRole('textbox', { name: 'Message' }).fill('Find me a mug');
  await panel.getByRole('button', { name: 'Send' }).click();
  await panel.locator('.markdown strong', { hasText: 'Stoneware Mug' }).waitFor({ timeout: 30_000 });
  const state = await toolCard(panel, 'search_products').locator('.tool-state').textContent();
  assert(state === 'done', `the search_products card says "${state}"`);
  assert(new URL(shop.url()).hash === '#/search?q=mug', `the shop shows ${shop.url()}`);
  const sent = provider.requests.find((r) => r.path.endsWith('/chat/completions'));
  assert(sent?.headers.authorization === `Bearer ${API_KEY}`, 'the provider did not get the key');
  assert(JSON.stringify(sent.body).includes('search_products'), 'the provider did not get the page tools');
}

function scriptErrand(provider: ProviderServer): void {
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'search_products', input: { query: 'mug' } }] },
    { type: 'reply', text: 'The **Stoneware Mug** is $22.00.' },
  );
}

/** Runs the installed bridge with `args` in `home`; its exit code and output. */
function bridge(bin: string, home: string, args: string[]): { code: number; out: string } {
  const result = spawnSync(bin, args, {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: home },
    timeout: 60_000,
  });
  return { code: result.status ?? -1, out: `${result.stdout}${result.stderr}` };
}

async function main(): Promise<number> {
  const version = String(JSON.parse(readFileSync('package.json', 'utf8')).version);
  const files = releaseFiles(version);
  const work = mkdtempSync(join(tmpdir(), 'webmcp-release-test-'));
  const unpacked = { chrome: join(work, 'chrome'), firefox: join(work, 'firefox') };
  const server: StaticServer = await startStaticServer({ '/demo': 'demo' });
  const provider: ProviderServer = await startProviderServer({ apiKey: API_KEY });
  let storeCopyId: string | undefined;
  try {
    const made = await check('npm run release writes every package under release/<version>/', async () => {
      // The builds the E2E tests and the Firefox smoke load, to compare the store builds with.
      execFileSync('npx', ['wxt', 'build'], { stdio: 'ignore' });
      execFileSync('npx', ['wxt', 'build', '-b', 'firefox'], { stdio: 'ignore' });
      const release = spawnSync('npx', ['tsx', 'scripts/release.ts'], { encoding: 'utf8' });
      assert(release.status === 0, `npm run release failed:\n${release.stdout}\n${release.stderr}`.slice(-3000));
      for (const path of [files.chromeZip, files.firefoxZip, files.sourcesZip, files.bridgeTarball]) {
        assert(existsSync(path) && statSync(path).size > 0, `no ${path}`);
      }
      const shots = readdirSync(files.screenshots).filter((name) => name.endsWith('.png'));
      assert(shots.length === 3, `screenshots: ${shots.join(', ')}`);
      for (const shot of shots) {
        const { width, height } = pngSize(join(files.screenshots, shot));
        assert(width === 1280 && height === 800, `${shot} is ${width}×${height}, not 1280×800`);
      }
      const sums = readFileSync(join(files.dir, 'SHA256SUMS'), 'utf8');
      assert(sums.split('\n').filter(Boolean).length === 4, `SHA256SUMS:\n${sums}`);
      await extractZip(resolve(files.chromeZip), { dir: unpacked.chrome });
      await extractZip(resolve(files.firefoxZip), { dir: unpacked.firefox });
      // AMO's sources: what the build reads and the steps, nothing of the tests, no credential.
      const sources = join(work, 'sources');
      await extractZip(resolve(files.sourcesZip), { dir: sources });
      const listed = filesUnder(sources);
      for (const needed of ['BUILDING.md', 'package.json', 'package-lock.json', '.npmrc', 'wxt.config.ts', 'docs/privacy.md']) {
        assert(listed.includes(needed), `the sources zip has no ${needed}`);
      }
      const stray = listed.filter((name) => /^(tests|demo|bench|release|\.output|node_modules)\/|\.test\.tsx?$/.test(name));
      assert(stray.length === 0, `the sources zip carries ${stray.slice(0, 5).join(', ')}`);
      assert(!/_auth|token\s*=/i.test(readFileSync(join(sources, '.npmrc'), 'utf8')), 'the sources zip’s .npmrc holds a credential');
    });
    if (!made) return 1;

    await check('the Chrome zip: no key, this version, no test hooks; else the files of the tested build', async () => {
      const manifest = JSON.parse(readFileSync(join(unpacked.chrome, 'manifest.json'), 'utf8'));
      assert(!('key' in manifest), 'the Chrome zip carries the development key');
      assert(manifest.version === version, `its version is ${manifest.version}`);
      const hooks = hooksIn(unpacked.chrome);
      assert(hooks.length === 0, `test hooks in the store zip: ${hooks.join('; ')}`);
      const tested = JSON.parse(readFileSync('.output/chrome-mv3/manifest.json', 'utf8'));
      delete tested.key;
      assert(JSON.stringify(manifest) === JSON.stringify(tested), 'its manifest differs from the tested build’s beyond the key');
      // The manifest's bytes differ too: WXT indents it in any mode but `production`.
      const differ = differences(unpacked.chrome, '.output/chrome-mv3');
      assert(JSON.stringify(differ) === JSON.stringify(['background.js', 'manifest.json']), `differs from the tested build in ${differ}`);
      assert(hooksIn('.output/chrome-mv3').length > 0, 'the tested build has no hooks either: this check would find none');
    });

    await check('the AMO zip: the gecko id, what it declares it sends, no test hooks; else the tested build', async () => {
      const manifest = JSON.parse(readFileSync(join(unpacked.firefox, 'manifest.json'), 'utf8'));
      const gecko = manifest.browser_specific_settings?.gecko;
      assert(gecko?.id === FIREFOX_EXTENSION_ID, `gecko id ${gecko?.id}`);
      const declared = [...(gecko.data_collection_permissions?.required ?? [])].sort().join(',');
      assert(declared === 'authenticationInfo,browsingActivity,personalCommunications,websiteContent', `declares ${declared}`);
      assert(manifest.version === version, `its version is ${manifest.version}`);
      const hooks = hooksIn(unpacked.firefox);
      assert(hooks.length === 0, `test hooks in the AMO zip: ${hooks.join('; ')}`);
      // WXT indents the manifest in any mode but `production`: the same keys and values, other bytes.
      const tested = JSON.parse(readFileSync('.output/firefox-mv3/manifest.json', 'utf8'));
      assert(JSON.stringify(manifest) === JSON.stringify(tested), 'its manifest differs from the tested build’s');
      const differ = differences(unpacked.firefox, '.output/firefox-mv3');
      assert(JSON.stringify(differ) === JSON.stringify(['background.js', 'manifest.json']), `differs from the tested build in ${differ}`);
    });

    await check('web-ext lint of the AMO zip: 0 errors, and only the warnings the README explains', async () => {
      const lint = spawnSync('npx', ['web-ext', 'lint', '-s', unpacked.firefox, '--output', 'json'], { encoding: 'utf8' });
      const report = JSON.parse(lint.stdout.slice(lint.stdout.indexOf('{')));
      assert(report.errors.length === 0, `errors: ${JSON.stringify(report.errors.map((e: { code: string }) => e.code))}`);
      const left = [...EXPLAINED_WARNINGS];
      const unexplained: string[] = [];
      for (const warning of report.warnings as { code: string; file: string }[]) {
        const at = left.findIndex((w) => w.code === warning.code && w.file.test(warning.file));
        if (at < 0) unexplained.push(`${warning.code} in ${warning.file}`);
        else left.splice(at, 1);
      }
      assert(unexplained.length === 0, `warnings the README does not explain: ${unexplained.join('; ')}`);
      assert(left.length === 0, `explained warnings that no longer occur (update the README): ${left.map((w) => w.why).join('; ')}`);
    });

    await check('the Chrome store copy in a fresh Chromium profile lists the shop’s tools and runs one from the panel', async () => {
      const { context, close } = await launchBrowser({ extensionDir: unpacked.chrome, executablePath: CHROMIUM });
      try {
        const sw = await findServiceWorker(context);
        storeCopyId = new URL(sw.url()).host;
        assert(storeCopyId !== CHROME_EXTENSION_ID, 'the store copy got the development id: its manifest has a key');
        await waitFor('the page stubs', () => sw.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).length > 0));
        // Cloud settings as the options page stores them.
        await sw.evaluate(
          ([baseURL, key]) =>
            chrome.storage.local.set({
              'settings.mode': 'cloud',
              'settings.cloud': { provider: 'openai-compatible', baseURL, model: 'test-model' },
              'secret.apiKey.openai-compatible': key,
              'settings.apiKeyMask.openai-compatible': 'sk-…test',
            }),
          [`${provider.url}/v1`, API_KEY] as const,
        );
        provider.requests.length = 0;
        scriptErrand(provider);
        const shop = await context.newPage();
        await shop.goto(`${server.url}/demo/`);
        const panel = await openSidePanel(context, storeCopyId, await tabIdOf(sw, shop));
        await chromeErrand(panel, shop, provider);
        const hooks = await sw.evaluate((names) => names.filter((k) => k in globalThis), [...E2E_TEST_HOOK_NAMES]);
        assert(hooks.length === 0, `the worker has test hooks: ${hooks}`);
        // The privacy policy the options page links, as the package carries it.
        const options = await context.newPage();
        await options.goto(`chrome-extension://${storeCopyId}/options.html`);
        const [policy] = await Promise.all([context.waitForEvent('page'), options.getByRole('link', { name: 'Privacy policy' }).click()]);
        await policy.getByRole('heading', { name: 'Cloud mode (only if you choose it)' }).waitFor();
        assert((await policy.locator('table tr').count()) > 5, 'the policy has no table of what is kept');
        assert((await policy.locator('script:not([src]), img').count()) === 0, 'the policy page rendered markup it should not');
      } finally {
        await close();
      }
    });

    await check('the AMO zip as it is installs into a fresh firefox-esr, and its page stub gives the shop WebMCP', async () => {
      const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
      try {
        const id = await browser.installExtension(resolve(files.firefoxZip));
        assert(id === FIREFOX_EXTENSION_ID, `installed as ${id}`);
        const page = await browser.newPage();
        await page.goto(`${server.url}/demo/`);
        await waitFor('the demo to find WebMCP', () =>
          run<boolean>(page, "() => document.getElementById('webmcp-status').dataset.state === 'ready'"),
        );
      } finally {
        await browser.close();
      }
    });

    await check('the AMO copy in firefox-esr lists the shop’s tools and runs one from the sidebar’s page', async () => {
      // BiDi cannot open moz-extension:// pages: the Firefox smoke's hook, added to a copy of the zip's files, opens it.
      const session = await launchFirefox(unpacked.firefox);
      try {
        const SAVE = `async (items) => {
          const db = await new Promise((ok, no) => {
            const r = indexedDB.open('webmcp-agent', 1);
            r.onupgradeneeded = () => r.result.createObjectStore('items');
            r.onsuccess = () => ok(r.result);
            r.onerror = () => no(r.error);
          });
          await new Promise((ok, no) => {
            const tx = db.transaction('items', 'readwrite');
            for (const [key, value] of Object.entries(items)) tx.objectStore('items').put(value, key);
            tx.oncomplete = ok;
            tx.onerror = () => no(tx.error);
          });
          db.close();
          new BroadcastChannel('webmcp-agent-storage').postMessage({ keys: Object.keys(items) });
        }`;
        const first = await session.openWithExtensionPage(`${server.url}/demo/`, 'options.html');
        await run(first.extensionPage, SAVE, {
          'settings.mode': 'cloud',
          'settings.cloud': { provider: 'openai-compatible', baseURL: `${provider.url}/v1`, model: 'test-model' },
          'secret.apiKey.openai-compatible': API_KEY,
          'settings.apiKeyMask.openai-compatible': 'sk-…test',
        });
        provider.requests.length = 0;
        scriptErrand(provider);
        const shop = await session.openWithExtensionPage(`${server.url}/demo/?again`, 'sidepanel.html');
        const text = () => run<string>(shop.extensionPage, '() => document.body.innerText');
        await waitFor('the panel to list the shop tools', async () => /Tools \(\d+\)/.test(await text()), 30_000);
        await run(
          shop.extensionPage,
          `(message) => {
            const box = document.querySelector('textarea[aria-label="Message"]');
            box.value = message;
            box.dispatchEvent(new Event('input', { bubbles: true }));
            box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
          }`,
          'Find me a mug',
        );
        await waitFor(
          'the answer in the panel',
          () => run<boolean>(shop.extensionPage, "() => document.querySelector('.markdown strong')?.textContent === 'Stoneware Mug'"),
          30_000,
        );
        const state = await run<string>(
          shop.extensionPage,
          "() => [...document.querySelectorAll('.tool-card')].find((c) => c.textContent.includes('search_products'))?.querySelector('.tool-state')?.textContent",
        );
        assert(state === 'done', `the search_products card says "${state}"`);
        const hash = await run<string>(shop.page, '() => location.hash');
        assert(hash === '#/search?q=mug', `the shop shows ${hash}`);
        assert(
          provider.requests.some((r) => r.headers.authorization === `Bearer ${API_KEY}`),
          'the provider did not get the key',
        );
      } finally {
        await session.close();
      }
    });

    await check('the bridge tarball installs with npm into an empty prefix; --help, install, status and a store id work', async () => {
      const prefix = join(work, 'prefix');
      const home = join(work, 'home');
      mkdirSync(join(home, '.config', 'chromium'), { recursive: true });
      const installed = spawnSync(
        'npm',
        ['install', '--global', '--prefix', prefix, resolve(files.bridgeTarball), '--prefer-offline', '--no-audit', '--no-fund'],
        { encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } },
      );
      assert(installed.status === 0, `npm install failed:\n${installed.stderr}`.slice(-2000));
      const bin = join(prefix, 'bin', 'webmcp-agent-bridge');
      assert(existsSync(bin), `no ${bin}`);
      const help = bridge(bin, home, ['--help']);
      assert(help.code === 0 && help.out.includes('install') && help.out.includes('--extension-id'), `--help: ${help.out}`);
      const shown = bridge(bin, home, ['--version']);
      assert(shown.out.trim() === version, `--version says ${shown.out}`);
      const first = bridge(bin, home, ['install']);
      assert(first.code === 0, `install: ${first.out}`);
      const manifestPath = join(home, '.config', 'chromium', 'NativeMessagingHosts', `${NATIVE_HOST_NAME}.json`);
      const launcher = readFileSync(join(home, '.webmcp-agent', 'bin', 'native-host'), 'utf8');
      assert(launcher.includes(join(prefix, 'lib', 'node_modules', 'webmcp-agent-bridge', 'dist', 'cli.js')), `launcher: ${launcher}`);
      const status = bridge(bin, home, ['status']);
      assert(status.code === 0 && status.out.includes(`Installed: ${manifestPath}`), `status: ${status.out}`);
      assert(storeCopyId, 'no store copy id (the Chrome check did not run)');
      const withStore = bridge(bin, home, ['install', '--extension-id', storeCopyId]);
      assert(withStore.code === 0, `install --extension-id: ${withStore.out}`);
      const origins: string[] = JSON.parse(readFileSync(manifestPath, 'utf8')).allowed_origins;
      assert(
        JSON.stringify(origins) === JSON.stringify([`chrome-extension://${CHROME_EXTENSION_ID}/`, `chrome-extension://${storeCopyId}/`]),
        `allowed_origins: ${origins}`,
      );
      const bad = bridge(bin, home, ['install', '--extension-id', 'not-an-id']);
      assert(bad.code === 1 && bad.out.includes('Not an extension id: "not-an-id"'), `a bad id: ${bad.code} ${bad.out}`);
      const removed = bridge(bin, home, ['uninstall']);
      assert(removed.code === 0 && !existsSync(manifestPath), `uninstall: ${removed.out}`);
    });
  } finally {
    await provider.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  return 0;
}

const code = await main().catch((error) => {
  crashed();
  console.log(`  ✗ release test crashed: ${error instanceof Error ? error.stack : String(error)}`);
  return 1;
});
const counted = finish('release');
process.exit(code === 0 && counted === 0 ? 0 : 1);
