#!/usr/bin/env node
/**
 * webmcp-agent-bridge: the local side of WebMCP Agent's bridge to desktop agents (docs/security.md § 7).
 *
 *   install    write the native-messaging host manifests and the launchers; print how to add the MCP server
 *   uninstall  remove them
 *   status     what is installed, and whether a browser is connected now
 *   serve      the MCP server (stdio), started by the desktop agent
 *   native-host  the native-messaging host, started by the browser
 *
 * Installed from npm: `npx webmcp-agent-bridge install` (or `npm install -g webmcp-agent-bridge`, then
 * `webmcp-agent-bridge install`). From a clone: `npm run bridge -- install` (it builds dist/cli.js, then runs it).
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { clientSetup, install, installedManifests, uninstall } from './install.js';
import { createMcpServer } from './mcp-server.js';
import { runNativeHost } from './native-host.js';
import { ensurePairingCode, readPairingCode } from './pairing.js';
import { socketPath } from './socket-path.js';

const USAGE = `Usage: webmcp-agent-bridge <command>

  install [--browser <name>]… [--user-data-dir <dir>]… [--extension-id <id>]… [--new-pairing-code]
            Writes the native-messaging host manifest for each browser found (or named: chrome, chromium, edge,
            brave, firefox, all; or a Chromium profile started with --user-data-dir) and prints how to add the MCP
            server to Claude Code, Cursor or Claude Desktop. Installed WebMCP Agent from a store? Add the id it got
            there: --extension-id <id> (chrome://extensions shows it; Firefox needs none).
  uninstall [--user-data-dir <dir>]…
            Removes them.
  status    Says what is installed and whether a browser is sharing now.
  serve     The MCP server (stdio). Your desktop agent starts it.
  native-host
            The native-messaging host. The browser starts it.
  --version Prints this bridge's version.`;

function version(): string {
  try {
    return String(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version ?? '0.0.0');
  } catch {
    return '0.0.0';
  }
}

/** The values of every `--name value` (or `--name=value`) in args. */
function flagValues(args: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}` && args[i + 1] !== undefined) values.push(args[++i]);
    else if (args[i].startsWith(`--${name}=`)) values.push(args[i].slice(name.length + 3));
  }
  return values;
}

/** What the MCP server tells the client when the browser cannot be reached. */
function notReachable(): string {
  if (installedManifests(homedir()).length === 0 && !process.env.WEBMCP_AGENT_BRIDGE_DIR) {
    return 'WebMCP Agent is not reachable: the bridge is not installed for any browser on this computer. Run `npx webmcp-agent-bridge install` (with `--extension-id <id>` for a copy from a browser store; in a clone of WebMCP Agent, `npm run bridge -- install`), then restart the browser.';
  }
  return "WebMCP Agent is not reachable: the browser is not running, the extension is not installed, or sharing with desktop agents is off. In the browser, turn on Desktop agents in the extension's options page and share a site from its side panel.";
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'native-host': {
      const host = runNativeHost({
        stdin: process.stdin,
        stdout: process.stdout,
        args,
        socketPath: socketPath(),
        pairingCode: readPairingCode(homedir()),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      await host.done;
      return 0;
    }
    case 'serve': {
      const { server } = createMcpServer({
        socketPath: socketPath(),
        version: version(),
        notReachable,
        log: (line) => process.stderr.write(`${line}\n`),
      });
      await server.connect(new StdioServerTransport());
      return await new Promise<number>((resolve) => {
        server.server.onclose = () => resolve(0);
      });
    }
    case 'install': {
      const report = install({
        home: homedir(),
        browsers: flagValues(args, 'browser'),
        userDataDirs: flagValues(args, 'user-data-dir'),
        extensionIds: flagValues(args, 'extension-id'),
        node: process.execPath,
        // This file, built: dist/cli.js (install refuses to write launchers of the sources).
        cli: fileURLToPath(import.meta.url),
      });
      for (const { browser, path } of report.manifests) console.log(`Installed for ${browser}: ${path}`);
      // npx runs packages from npm's cache, which `npm cache clean` or a newer npx may remove under the launchers.
      if (/[\\/]_npx[\\/]/.test(fileURLToPath(import.meta.url))) {
        console.log(
          "\nThis copy runs from npm's npx cache, and the launchers point into it: if npm clears that cache, run this install again, or keep a copy with `npm install -g webmcp-agent-bridge` and run `webmcp-agent-bridge install`.",
        );
      }
      if (report.manifests.some((m) => m.kind === 'firefox')) {
        const code = ensurePairingCode(homedir(), args.includes('--new-pairing-code'));
        console.log(`\nFirefox pairing code: ${code}\nType it once in the extension's options page (Desktop agents) in Firefox.`);
      }
      console.log(`\n${clientSetup(report.mcpServerLauncher)}`);
      return 0;
    }
    case 'uninstall': {
      const removed = uninstall({ home: homedir(), userDataDirs: flagValues(args, 'user-data-dir') });
      console.log(removed.length > 0 ? removed.map((path) => `Removed ${path}`).join('\n') : 'Nothing to remove.');
      return 0;
    }
    case 'status': {
      const manifests = installedManifests(homedir());
      console.log(manifests.length > 0 ? manifests.map((path) => `Installed: ${path}`).join('\n') : 'Not installed for any browser.');
      const code = readPairingCode(homedir());
      if (code) console.log(`Firefox pairing code: ${code}`);
      const live = await new Promise<boolean>((resolve) => {
        const probe = connect(socketPath());
        probe.once('connect', () => {
          probe.destroy();
          resolve(true);
        });
        probe.once('error', () => resolve(false));
      });
      console.log(live ? 'A browser is sharing now.' : 'No browser is sharing now (sharing is off, or the browser is closed).');
      return 0;
    }
    case '--version':
      console.log(version());
      return 0;
    default:
      console.log(USAGE);
      return command === undefined || command === '--help' || command === 'help' ? 0 : 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`webmcp-agent-bridge: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
