/**
 * The native-messaging host: the browser starts it when the extension's bridge is on (runtime.connectNative), and
 * it ends when the browser closes its stdin (bridge off, extension reloaded, browser closed). It listens on the
 * local socket (socket-path.ts) for the MCP servers desktop agents start, and relays: a line from a connection goes
 * to the extension stamped with that connection's `clientId`; the extension's answers go back to the connection
 * they name, and its notices to all. It decides nothing (protocol.ts), but it relays only the kinds a connection
 * may send: a line that says it is the host's own (`host/busy`, `host/challenge`…) is dropped, so the extension hears
 * those from the host alone.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { createLineReader, createNativeMessageReader, encodeNativeMessage, MAX_TO_BROWSER_BYTES } from './native-messaging.js';
import { type HostHello, type HostToExtension, type HostUnpairedReason, isObject, SERVER_TO_EXTENSION_TYPES } from './protocol.js';
import { checkPairingProof, newNonce } from './pairing.js';
import { ensurePrivateDir } from './socket-path.js';

/** Longest line a connection may send (a call's arguments included): the browser takes at most 1 MB from the host. */
const MAX_LINE_BYTES = MAX_TO_BROWSER_BYTES - 4096;

interface NativeHostOptions {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** The host's arguments: Chrome passes the caller's origin, Firefox the manifest's path and the add-on's id. */
  args: readonly string[];
  socketPath: string;
  /**
   * The pairing code, for a host Firefox started (pairing.ts): the socket opens only after the extension proves it
   * holds it. Undefined: Firefox's hosts refuse to start.
   */
  pairingCode?: string;
  /** How long the extension has to answer the challenge. Default 10 s. */
  pairingTimeoutMs?: number;
  /** Diagnostics (stderr: the browser shows them in its own log). */
  log?: (line: string) => void;
}

/** The running host, for tests. */
interface NativeHost {
  /** Resolves when the host has stopped (stdin closed, or another host serves the socket). */
  done: Promise<void>;
  /** Listening (or refused): resolves once the socket is up, or the host knows it cannot have it. */
  ready: Promise<'listening' | 'busy'>;
}

/** Starts the host. */
export function runNativeHost(options: NativeHostOptions): NativeHost {
  const log = options.log ?? (() => undefined);
  const browser: HostHello['browser'] = options.args.some((a) => a.startsWith('chrome-extension://')) ? 'chrome' : 'firefox';
  const connections = new Map<string, Socket>();
  let server: Server | undefined;
  /** Firefox's challenge, answered (or not) by the extension's first message. */
  let answerChallenge: ((proof: unknown) => void) | undefined;
  let stopped = false;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });

  const toBrowser = (message: HostToExtension | Record<string, unknown>) => {
    try {
      options.stdout.write(encodeNativeMessage(message));
      return true;
    } catch (error) {
      log(`webmcp-agent native host: could not send to the browser: ${String(error)}`);
      return false;
    }
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    for (const socket of connections.values()) socket.destroy();
    connections.clear();
    if (server) {
      server.close();
      if (process.platform !== 'win32') rmSync(options.socketPath, { force: true });
    }
    resolveDone();
  };

  // The browser's messages: answers for one connection, or notices for all.
  options.stdin.on(
    'data',
    createNativeMessageReader(
      (message) => {
        if (!isObject(message)) return;
        if (message.type === 'host/proof') {
          answerChallenge?.(message.proof);
          return;
        }
        const { clientId, ...rest } = message;
        const line = `${JSON.stringify(rest)}\n`;
        if (typeof clientId === 'string') connections.get(clientId)?.write(line);
        else for (const socket of connections.values()) socket.write(line);
      },
      (error) => {
        log(`webmcp-agent native host: ${error.message}; stopping`);
        stop();
      },
    ),
  );
  options.stdin.on('end', stop);
  options.stdin.on('close', stop);

  const accept = (socket: Socket) => {
    const clientId = randomBytes(12).toString('hex');
    connections.set(clientId, socket);
    socket.write(`${JSON.stringify({ type: 'host/hello', browser } satisfies HostHello)}\n`);
    socket.on(
      'data',
      createLineReader(
        (message) => {
          if (!isObject(message)) return;
          // Only what an MCP server sends: the host's own notices come from the host, never from a connection.
          if (typeof message.type !== 'string' || !SERVER_TO_EXTENSION_TYPES.has(message.type)) {
            log(`webmcp-agent native host: dropped a line of kind ${JSON.stringify(String(message.type).slice(0, 40))} from a connection`);
            return;
          }
          // The connection is who the socket says, whatever the line claims.
          if (!toBrowser({ ...message, clientId })) {
            const id = typeof message.id === 'string' ? message.id : undefined;
            if (id)
              socket.write(`${JSON.stringify({ type: 'reply', id, error: { message: 'The request was too large for the browser.' } })}\n`);
          }
        },
        { maxLineBytes: MAX_LINE_BYTES, onTooLong: () => socket.destroy() },
      ),
    );
    const gone = () => {
      if (connections.get(clientId) !== socket) return;
      connections.delete(clientId);
      if (!stopped) toBrowser({ type: 'client/gone', clientId });
    };
    socket.on('close', gone);
    socket.on('error', () => socket.destroy());
  };

  const ready = (async (): Promise<'listening' | 'busy'> => {
    ensurePrivateDir(dirname(options.socketPath));
    // A live host (another browser's) keeps the socket; a stale file from a host that died is removed.
    if (await answers(options.socketPath)) {
      const message =
        'Another browser on this computer already shares its tools with desktop agents. Turn the bridge off there to share from this one.';
      toBrowser({ type: 'host/busy', reason: 'other-browser', message });
      log(`webmcp-agent native host: ${message}`);
      stop();
      return 'busy';
    }
    if (browser === 'firefox') {
      // Firefox gives content scripts connectNative too: only the extension's own background holds the code.
      const unpaired = await pair();
      if (unpaired) {
        toBrowser({ type: 'host/unpaired', ...unpaired });
        log(`webmcp-agent native host: ${unpaired.message}`);
        stop();
        return 'busy';
      }
    }
    if (process.platform !== 'win32') rmSync(options.socketPath, { force: true });
    const listening = createServer(accept);
    server = listening;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(options.socketPath, () => resolve());
    });
    if (process.platform !== 'win32') chmodSync(options.socketPath, 0o600);
    if (stopped) listening.close();
    return 'listening';
  })();
  ready.catch((error) => {
    log(`webmcp-agent native host: cannot listen on ${options.socketPath}: ${String(error)}`);
    toBrowser({
      type: 'host/busy',
      reason: 'no-socket',
      message: `The bridge could not open its socket (${String(error?.message ?? error)}).`,
    });
    stop();
  });

  /** Challenges the extension; undefined when it proved it holds the pairing code, else why not. */
  async function pair(): Promise<{ reason: HostUnpairedReason; message: string } | undefined> {
    const code = options.pairingCode;
    if (!code) {
      return {
        reason: 'no-code',
        message:
          'Firefox needs a pairing code: run `npm run bridge -- install --browser firefox` and type the code it prints into the extension’s options page.',
      };
    }
    const nonce = newNonce();
    const proof = await new Promise<unknown>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), options.pairingTimeoutMs ?? 10_000);
      answerChallenge = (value) => {
        clearTimeout(timer);
        answerChallenge = undefined;
        resolve(value);
      };
      toBrowser({ type: 'host/challenge', nonce });
    });
    return checkPairingProof(code, nonce, proof)
      ? undefined
      : {
          reason: 'mismatch',
          message:
            'The pairing code in the extension’s options page does not match this computer’s. Type the code `npm run bridge -- install --browser firefox` printed (`npm run bridge -- status` shows it again).',
        };
  }

  return { done, ready: ready.catch(() => 'busy' as const) };
}

/** Whether something answers on the socket now. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
