/**
 * `npm start`: build the extension, serve the demo shop on 127.0.0.1 and the demo recipe site on localhost (the
 * same server, another origin, for errands that cross sites), and open a Chromium-family browser with the
 * extension loaded on both pages, in a fresh throwaway profile. Where no browser can load the
 * build (none found, Google Chrome 137+ which ignores --load-extension, or no display) it says how to
 * load it by hand and keeps serving. Ctrl+C stops everything.
 *
 *   npm start -- [--port 5174] [--webmcp] [--no-build] [--browser /path/to/chromium] [--headless]
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startStaticServer } from '../tests/servers/static-server';

const EXTENSION_DIR = resolve('.output/chrome-mv3');

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '5174' },
    webmcp: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    browser: { type: 'string', default: process.env.CHROME_PATH },
    headless: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (options.help) {
  console.log(`npm start -- [options]
  --port N        serve the shop on http://127.0.0.1:N and the recipes on http://localhost:N (default 5174, or $PORT)
  --webmcp        start the browser with native WebMCP (--enable-features=WebMCP); without it the extension's polyfill runs
  --no-build      skip "wxt build" and use the existing .output/chrome-mv3
  --browser PATH  the browser to start (default $CHROME_PATH, else the first Chromium-family browser found)
  --headless      start the browser headless (no window; for checking the launch on a machine without a display)`);
  process.exit(0);
}

interface Browser {
  path: string;
  version: string;
  /** Google-branded Chrome 137+ ignores --load-extension; Chromium, Chrome for Testing and others honour it. */
  loadsUnpacked: boolean;
}

const CANDIDATES: Record<string, string[]> = {
  linux: ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'brave-browser', 'microsoft-edge'],
  darwin: [
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
    '/Applications/Brave Browser.app/Contents/MacOS/Brave Browser',
    '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ],
  win32: [
    `${process.env.LOCALAPPDATA}\\Chromium\\Application\\chrome.exe`,
    `${process.env.PROGRAMFILES}\\Google\\Chrome\\Application\\chrome.exe`,
    `${process.env['PROGRAMFILES(X86)']}\\Microsoft\\Edge\\Application\\msedge.exe`,
  ],
};

function onPath(name: string): string | undefined {
  if (name.includes('/') || name.includes('\\')) return existsSync(name) ? name : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, name);
    if (dir && existsSync(file)) return file;
  }
  return undefined;
}

function inspectBrowser(path: string): Browser | undefined {
  let version = '';
  if (process.platform !== 'win32') {
    // Debian's chromium wrapper prints noise on stderr; the version is the first stdout line.
    const out = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 15_000 });
    if (out.error) return undefined;
    version = out.stdout.trim().split('\n')[0] ?? '';
  }
  const major = Number(version.match(/(\d+)\.\d+/)?.[1] ?? 0);
  const brandedChrome = /^Google Chrome(?! for Testing)/.test(version) || (!version && /Google.Chrome/i.test(path));
  return { path, version: version || path, loadsUnpacked: !(brandedChrome && (major >= 137 || major === 0)) };
}

function findBrowsers(): Browser[] {
  const names = options.browser ? [options.browser] : (CANDIDATES[process.platform] ?? CANDIDATES.linux);
  const found: Browser[] = [];
  for (const name of names) {
    const path = onPath(name);
    if (!path || found.some((b) => b.path === path)) continue;
    const browser = inspectBrowser(path);
    if (browser) found.push(browser);
  }
  return found;
}

function byHand(reason: string, demoUrl: string, recipesUrl: string): void {
  console.log(`
${reason}
To load the extension by hand:
  Chrome / Chromium / Edge: open chrome://extensions, turn on Developer mode, click "Load unpacked",
    and choose ${EXTENSION_DIR}
  Firefox: npx wxt build -b firefox, then about:debugging#/runtime/this-firefox → "Load Temporary Add-on…"
    and choose .output/firefox-mv3/manifest.json
Then open ${demoUrl} (the shop) or ${recipesUrl} (the recipes) and click the WebMCP Agent toolbar button
(in the puzzle-piece menu) for the side panel.
`);
}

async function main(): Promise<void> {
  if (!options['no-build']) {
    console.log('Building the extension (wxt build)…');
    const started = Date.now();
    execFileSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['wxt', 'build'], { stdio: 'inherit' });
    console.log(`Built ${EXTENSION_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } else if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) {
    throw new Error(`--no-build, but there is no build in ${EXTENSION_DIR}: run "npm run build" first.`);
  }

  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not "${options.port}".`);
  const server = await startStaticServer({ '/demo': 'demo' }, port).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') throw new Error(`Port ${port} is in use: try "npm start -- --port ${port + 1}".`);
    throw error;
  });
  // Each origin's front page is its own site: the shop on 127.0.0.1, the recipes on localhost.
  server.route((req, res) => {
    if (req.url !== '/' && req.url !== '') return false;
    const recipes = /^localhost(?::\d+)?$/i.test(req.headers.host ?? '');
    res.writeHead(302, { location: recipes ? '/demo/recipes/' : '/demo/' }).end();
    return true;
  });
  const demoUrl = `${server.url}/demo/`;
  const recipesUrl = `${server.crossOriginUrl}/demo/recipes/`;
  console.log(`Serving the demo shop at ${demoUrl}`);
  console.log(`Serving the demo recipes at ${recipesUrl} (another origin: try an errand across the two tabs)`);

  let child: ChildProcess | undefined;
  let profile: string | undefined;
  let stopping = false;
  const stop = async (code = 0) => {
    stopping = true;
    if (child && child.exitCode === null && child.pid) {
      child.kill('SIGTERM');
      await new Promise((ok) => setTimeout(ok, 500));
    }
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  const browsers = findBrowsers();
  const usable = browsers.find((b) => b.loadsUnpacked);
  const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && !options.headless;

  if (!usable) {
    const reason = browsers.length
      ? `Found ${browsers.map((b) => b.version).join(', ')}: Google Chrome 137 and later ignore --load-extension.`
      : `No Chromium-family browser found${options.browser ? ` at ${options.browser}` : ''} (set $CHROME_PATH or pass --browser).`;
    byHand(reason, demoUrl, recipesUrl);
  } else if (noDisplay) {
    byHand(
      `No display ($DISPLAY is not set), so no browser window: on a desktop this opens ${usable.version} with the extension loaded.`,
      demoUrl,
      recipesUrl,
    );
  } else {
    profile = mkdtempSync(join(tmpdir(), 'webmcp-agent-start-'));
    const args = [
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      ...(options.webmcp ? ['--enable-features=WebMCP'] : []),
      ...(options.headless ? ['--headless=new'] : []),
      // Chromium refuses to run as root with its sandbox on.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      demoUrl,
      recipesUrl,
    ];
    console.log(
      `Starting ${usable.version} with the extension${options.webmcp ? ' and native WebMCP' : ' (WebMCP from the extension polyfill)'}.`,
    );
    console.log('Open the side panel with the WebMCP Agent toolbar button (pin it from the puzzle-piece menu).');
    child = spawn(usable.path, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', () => {});
    child.on('exit', (code) => {
      child = undefined;
      if (!stopping)
        console.log(`The browser closed${code ? ` (exit code ${code})` : ''}. Still serving ${demoUrl} and ${recipesUrl}; Ctrl+C to stop.`);
    });
  }
  console.log('Ctrl+C stops everything.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
