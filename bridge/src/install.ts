/**
 * `webmcp-agent-bridge install`: writes the native-messaging host manifest for each browser it finds (or is told
 * of), naming the extension by its stable id, and the two launchers the manifests and the desktop agents start.
 * The launchers run the package's built JavaScript (`dist/cli.js`, from `npm run build` in bridge/; `npm run bridge`
 * builds it first) with the Node that ran the installer, never the TypeScript sources. `uninstall` removes what
 * `install` wrote.
 *
 * Where browsers read user-level host manifests (their documentation; Chromium's and Firefox's on Linux checked on
 * this project's machine): Chromium-family browsers read `NativeMessagingHosts/` in their user-data directory (a
 * profile started with --user-data-dir reads its own), Firefox reads `~/.mozilla/native-messaging-hosts/` on Linux
 * and `~/Library/Application Support/Mozilla/NativeMessagingHosts/` on macOS. Windows needs registry keys: not
 * written here yet.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FIREFOX_EXTENSION_ID, knownChromeExtensionIds, NATIVE_HOST_NAME } from './extension-ids.js';

/** A browser the installer knows. */
export interface BrowserTarget {
  name: string;
  label: string;
  kind: 'chromium' | 'firefox';
  /** Where its host manifest goes. */
  manifestDir: string;
  /** A directory that exists when the browser has been used on this account. */
  detect: string;
}

/** The browsers the installer knows on this platform, for this home directory. */
export function browserTargets(home: string, platform: NodeJS.Platform = process.platform): BrowserTarget[] {
  const chromium = (name: string, label: string, userData: string): BrowserTarget => ({
    name,
    label,
    kind: 'chromium',
    manifestDir: join(userData, 'NativeMessagingHosts'),
    detect: userData,
  });
  if (platform === 'darwin') {
    const support = join(home, 'Library', 'Application Support');
    return [
      chromium('chrome', 'Google Chrome', join(support, 'Google', 'Chrome')),
      chromium('chromium', 'Chromium', join(support, 'Chromium')),
      chromium('edge', 'Microsoft Edge', join(support, 'Microsoft Edge')),
      chromium('brave', 'Brave', join(support, 'BraveSoftware', 'Brave-Browser')),
      {
        name: 'firefox',
        label: 'Firefox',
        kind: 'firefox',
        manifestDir: join(support, 'Mozilla', 'NativeMessagingHosts'),
        detect: join(support, 'Firefox'),
      },
    ];
  }
  const config = join(home, '.config');
  return [
    chromium('chrome', 'Google Chrome', join(config, 'google-chrome')),
    chromium('chromium', 'Chromium', join(config, 'chromium')),
    chromium('edge', 'Microsoft Edge', join(config, 'microsoft-edge')),
    chromium('brave', 'Brave', join(config, 'BraveSoftware', 'Brave-Browser')),
    {
      name: 'firefox',
      label: 'Firefox',
      kind: 'firefox',
      manifestDir: join(home, '.mozilla', 'native-messaging-hosts'),
      detect: join(home, '.mozilla'),
    },
  ];
}

/** The host manifest for one browser kind. */
export function hostManifest(kind: BrowserTarget['kind'], launcher: string, extraIds: readonly string[] = []): Record<string, unknown> {
  const base = { name: NATIVE_HOST_NAME, description: 'WebMCP Agent: page tools for your desktop agents', path: launcher, type: 'stdio' };
  if (kind === 'firefox') {
    const ids = [FIREFOX_EXTENSION_ID, ...extraIds.filter((id) => !isChromeId(id))];
    return { ...base, allowed_extensions: [...new Set(ids)] };
  }
  const ids = [...knownChromeExtensionIds(), ...extraIds.filter(isChromeId)];
  return { ...base, allowed_origins: [...new Set(ids)].map((id) => `chrome-extension://${id}/`) };
}

function isChromeId(id: string): boolean {
  return /^[a-p]{32}$/.test(id);
}

/** A Firefox add-on id as AMO accepts it: `name@domain`-like, or a GUID in braces. */
function isFirefoxId(id: string): boolean {
  return /^[a-zA-Z0-9._+-]*@[a-zA-Z0-9._-]+$/.test(id) || /^\{[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\}$/.test(id);
}

/** Refuses an `--extension-id` that no browser would give, before anything is written. */
function checkExtensionIds(ids: readonly string[]): void {
  const bad = ids.filter((id) => !isChromeId(id) && !isFirefoxId(id));
  if (bad.length > 0) {
    throw new Error(
      `Not an extension id: ${bad.map((id) => JSON.stringify(id)).join(', ')}. A Chrome, Edge or Brave id is 32 letters a–p (chrome://extensions shows it with Developer mode on); a Firefox id looks like name@example.org or {…}.`,
    );
  }
}

/** Where the launchers go. */
export function launcherDir(home: string): string {
  return join(home, '.webmcp-agent', 'bin');
}

/** A shell launcher that runs the bridge's CLI with `command` (and passes the browser's arguments on). */
export function launcherScript(options: { node: string; cli: string; command: string; what: string }): string {
  return [
    '#!/bin/sh',
    `# WebMCP Agent bridge: ${options.what}.`,
    '# Written by `webmcp-agent-bridge install` (`npm run bridge -- install` in a clone); its `uninstall` removes it.',
    `exec ${quote(options.node)} ${quote(options.cli)} ${options.command} "$@"`,
    '',
  ].join('\n');
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

interface InstallOptions {
  home: string;
  platform?: NodeJS.Platform;
  /** Browser names to install for ('all': every known one); default: the ones found. */
  browsers?: readonly string[];
  /** Chromium user-data directories to install into as well (a profile started with --user-data-dir). */
  userDataDirs?: readonly string[];
  /** More extension ids to allow (a store listing's). */
  extensionIds?: readonly string[];
  /** The Node binary the launchers run. */
  node: string;
  /** The built CLI the launchers run (bridge/dist/cli.js). */
  cli: string;
}

/** What install wrote. */
export interface InstallReport {
  manifests: { browser: string; path: string; kind: BrowserTarget['kind'] }[];
  nativeHostLauncher: string;
  mcpServerLauncher: string;
}

/** Writes the launchers and the host manifests. Throws when there is no browser to install for. */
export function install(options: InstallOptions): InstallReport {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') {
    throw new Error('Windows needs registry entries for native messaging, which this installer does not write yet.');
  }
  // Node runs JavaScript: a launcher of the TypeScript sources would need a loader from the clone's dev tools.
  if (!options.cli.endsWith('.js')) {
    throw new Error(
      `The launchers run the bridge's built JavaScript, not ${options.cli}: run \`npm run bridge -- install\`, which builds it first.`,
    );
  }
  checkExtensionIds(options.extensionIds ?? []);
  const known = browserTargets(options.home, platform);
  const wanted = options.browsers ?? [];
  const unknown = wanted.filter((name) => name !== 'all' && !known.some((b) => b.name === name));
  if (unknown.length > 0) throw new Error(`Unknown browser ${unknown.join(', ')}: use ${known.map((b) => b.name).join(', ')} or all.`);
  const chosen = wanted.includes('all')
    ? known
    : wanted.length > 0
      ? known.filter((b) => wanted.includes(b.name))
      : known.filter((b) => existsSync(b.detect));
  const targets = [
    ...chosen,
    ...(options.userDataDirs ?? []).map(
      (dir): BrowserTarget => ({
        name: `chromium (${dir})`,
        label: `Chromium profile ${dir}`,
        kind: 'chromium',
        manifestDir: join(dir, 'NativeMessagingHosts'),
        detect: dir,
      }),
    ),
  ];
  if (targets.length === 0) {
    throw new Error(
      `No browser found (looked for ${known.map((b) => b.label).join(', ')}). Name one with --browser, or a Chromium profile with --user-data-dir.`,
    );
  }

  const bin = launcherDir(options.home);
  mkdirSync(bin, { recursive: true, mode: 0o700 });
  const nativeHostLauncher = join(bin, 'native-host');
  const mcpServerLauncher = join(bin, 'mcp-server');
  const common = { node: options.node, cli: options.cli };
  writeExecutable(
    nativeHostLauncher,
    launcherScript({ ...common, command: 'native-host', what: 'the native-messaging host browsers start' }),
  );
  writeExecutable(mcpServerLauncher, launcherScript({ ...common, command: 'serve', what: 'the MCP server desktop agents start' }));

  const manifests = targets.map((target) => {
    mkdirSync(target.manifestDir, { recursive: true });
    const path = join(target.manifestDir, `${NATIVE_HOST_NAME}.json`);
    writeFileSync(path, `${JSON.stringify(hostManifest(target.kind, nativeHostLauncher, options.extensionIds), null, 2)}\n`);
    return { browser: target.label, path, kind: target.kind };
  });
  return { manifests, nativeHostLauncher, mcpServerLauncher };
}

/** Removes the manifests this installer writes (for every known browser and the given profiles) and the launchers. */
export function uninstall(options: { home: string; platform?: NodeJS.Platform; userDataDirs?: readonly string[] }): string[] {
  const dirs = [
    ...browserTargets(options.home, options.platform).map((b) => b.manifestDir),
    ...(options.userDataDirs ?? []).map((dir) => join(dir, 'NativeMessagingHosts')),
  ];
  const removed: string[] = [];
  for (const dir of dirs) {
    const path = join(dir, `${NATIVE_HOST_NAME}.json`);
    if (isOurs(path)) {
      rmSync(path, { force: true });
      removed.push(path);
    }
  }
  const bin = launcherDir(options.home);
  for (const name of ['native-host', 'mcp-server']) {
    const path = join(bin, name);
    if (existsSync(path)) {
      rmSync(path, { force: true });
      removed.push(path);
    }
  }
  return removed;
}

/** The host manifests of this bridge found for the known browsers. */
export function installedManifests(home: string, platform: NodeJS.Platform = process.platform): string[] {
  return browserTargets(home, platform)
    .map((b) => join(b.manifestDir, `${NATIVE_HOST_NAME}.json`))
    .filter(isOurs);
}

function isOurs(path: string): boolean {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))?.name === NATIVE_HOST_NAME;
  } catch {
    return false;
  }
}

function writeExecutable(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode: 0o755 });
  chmodSync(path, 0o755);
}

/** How to add the server to each desktop agent, for the installer's last words and the README. */
export function clientSetup(mcpServerLauncher: string): string {
  const json = JSON.stringify({ mcpServers: { 'webmcp-agent': { command: mcpServerLauncher } } }, null, 2);
  return [
    'Add the MCP server to your desktop agent:',
    '',
    `  Claude Code:     claude mcp add webmcp-agent -- ${mcpServerLauncher}`,
    "  Cursor:          in ~/.cursor/mcp.json (or the project's .cursor/mcp.json):",
    '  Claude Desktop:  in claude_desktop_config.json (Settings → Developer → Edit Config):',
    '',
    json
      .split('\n')
      .map((line) => `    ${line}`)
      .join('\n'),
    '',
    "Then, in the browser: the extension's options page → Desktop agents → turn sharing on, and in the side panel",
    'share a site (or just the tab) with desktop agents.',
  ].join('\n');
}
