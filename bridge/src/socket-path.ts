/**
 * Where the MCP server finds the native-messaging host: a Unix-domain socket in a directory only the person's own
 * account may open (mode 0700). No network port is opened, and there is no token to leak: the file system's
 * permissions are the lock. WEBMCP_AGENT_BRIDGE_DIR moves it (tests; a home directory whose path is too long for a
 * socket, about 100 bytes).
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The directory the socket lives in. */
export function bridgeDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.WEBMCP_AGENT_BRIDGE_DIR || join(homedir(), '.webmcp-agent');
}

/** The socket's path (a named pipe on Windows, where the installer does not go yet). */
export function socketPath(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\webmcp-agent-${(env.USERNAME ?? 'user').replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return join(bridgeDir(env), 'bridge.sock');
}

/** Makes the socket's directory, or tightens it, to the person's own account only. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const mode = statSync(dir).mode & 0o777;
  if (mode !== 0o700) chmodSync(dir, 0o700);
}
