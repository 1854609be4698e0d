import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHROME_EXTENSION_ID, FIREFOX_EXTENSION_ID, NATIVE_HOST_NAME } from './extension-ids.js';
import { clientSetup, install, installedManifests, launcherScript, uninstall } from './install.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'webmcp-install-test-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const base = () => ({
  home,
  platform: 'linux' as const,
  node: '/usr/bin/node',
  cli: '/repo/bridge/dist/cli.js',
});
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('install', () => {
  it('writes a manifest for each browser found, naming only the extension’s ids, and executable launchers', () => {
    mkdirSync(join(home, '.config', 'chromium'), { recursive: true });
    mkdirSync(join(home, '.mozilla'), { recursive: true });
    const report = install(base());
    expect(report.manifests.map((m) => m.browser)).toEqual(['Chromium', 'Firefox']);
    const chromium = read(join(home, '.config', 'chromium', 'NativeMessagingHosts', `${NATIVE_HOST_NAME}.json`));
    expect(chromium).toEqual({
      name: NATIVE_HOST_NAME,
      description: expect.any(String),
      path: report.nativeHostLauncher,
      type: 'stdio',
      allowed_origins: [`chrome-extension://${CHROME_EXTENSION_ID}/`],
    });
    const firefox = read(join(home, '.mozilla', 'native-messaging-hosts', `${NATIVE_HOST_NAME}.json`));
    expect(firefox.allowed_extensions).toEqual([FIREFOX_EXTENSION_ID]);
    expect(firefox.allowed_origins).toBeUndefined();
    expect(statSync(report.nativeHostLauncher).mode & 0o777).toBe(0o755);
    expect(readFileSync(report.nativeHostLauncher, 'utf8')).toContain("exec '/usr/bin/node' '/repo/bridge/dist/cli.js' native-host \"$@\"");
    expect(readFileSync(report.mcpServerLauncher, 'utf8')).toContain("'/repo/bridge/dist/cli.js' serve");
    expect(installedManifests(home, 'linux')).toHaveLength(2);
  });

  it('installs into a Chromium profile started with --user-data-dir, and adds store ids given', () => {
    const profile = join(home, 'profile');
    const storeId = 'abcdefghijklmnopabcdefghijklmnop';
    install({ ...base(), userDataDirs: [profile], extensionIds: [storeId, 'other@example.dev'] });
    const manifest = read(join(profile, 'NativeMessagingHosts', `${NATIVE_HOST_NAME}.json`));
    expect(manifest.allowed_origins).toEqual([`chrome-extension://${CHROME_EXTENSION_ID}/`, `chrome-extension://${storeId}/`]);
  });

  it('refuses an --extension-id no browser would give, and writes nothing', () => {
    const options = { ...base(), browsers: ['chromium'], extensionIds: ['ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP', '../../x'] };
    expect(() => install(options)).toThrow(/Not an extension id: "ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP", "\.\.\/\.\.\/x"/);
    expect(installedManifests(options.home)).toEqual([]);
  });

  it('says so when it finds no browser, and refuses a browser it does not know', () => {
    expect(() => install(base())).toThrow(/No browser found/);
    expect(() => install({ ...base(), browsers: ['netscape'] })).toThrow(/Unknown browser netscape/);
    expect(() => install({ ...base(), platform: 'win32' })).toThrow(/Windows/);
  });

  it('writes launchers only of the built JavaScript, never of the TypeScript sources', () => {
    mkdirSync(join(home, '.mozilla'), { recursive: true });
    expect(() => install({ ...base(), cli: '/repo/bridge/src/cli.ts' })).toThrow(/built JavaScript/);
    expect(installedManifests(home, 'linux')).toEqual([]);
  });

  it('uninstall removes what install wrote and nothing else', () => {
    mkdirSync(join(home, '.mozilla'), { recursive: true });
    const report = install({ ...base(), browsers: ['firefox'] });
    const removed = uninstall({ home, platform: 'linux' });
    expect(removed).toEqual([report.manifests[0].path, report.nativeHostLauncher, report.mcpServerLauncher]);
    expect(installedManifests(home, 'linux')).toEqual([]);
  });

  it('quotes paths with spaces and quotes in launchers', () => {
    const script = launcherScript({ node: "/o'k/node", cli: '/a b/cli.js', command: 'serve', what: 'x' });
    expect(script).toContain(`exec '/o'\\''k/node' '/a b/cli.js' serve "$@"`);
  });

  it('tells how to add the server to Claude Code, Cursor and Claude Desktop', () => {
    const text = clientSetup('/home/me/.webmcp-agent/bin/mcp-server');
    expect(text).toContain('claude mcp add webmcp-agent -- /home/me/.webmcp-agent/bin/mcp-server');
    expect(text).toContain('"command": "/home/me/.webmcp-agent/bin/mcp-server"');
    expect(text).toMatch(/Cursor/);
    expect(text).toMatch(/Claude Desktop/);
  });
});
