/**
 * A loopback static file server for fixture pages and the demo site. Serves `roots` (URL prefix → folder) on
 * 127.0.0.1; the same server is reachable as http://localhost:PORT, which browsers treat as another origin, so
 * cross-origin iframes need no second server.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
};

export interface StaticServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The same server as another origin: http://localhost:PORT */
  crossOriginUrl: string;
  port: number;
  /** Add a handler that runs before files are served; return true when it answered. */
  route: (handler: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>) => void;
  close: () => Promise<void>;
}

export async function startStaticServer(roots: Record<string, string>, port = 0): Promise<StaticServer> {
  const handlers: ((req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>)[] = [];
  const prefixes = Object.entries(roots)
    .map(([prefix, dir]) => [prefix.replace(/\/?$/, '/'), resolve(dir)] as const)
    .sort((a, b) => b[0].length - a[0].length);

  const server = createServer(async (req, res) => {
    for (const handler of handlers) if (await handler(req, res)) return;
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    for (const [prefix, dir] of prefixes) {
      if (!pathname.startsWith(prefix) && `${pathname}/` !== prefix) continue;
      let file = normalize(join(dir, pathname.slice(prefix.length)));
      if (!file.startsWith(dir)) break;
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
      if (!existsSync(file)) break;
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${pathname}`);
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    crossOriginUrl: `http://localhost:${actual}`,
    port: actual,
    route: (handler) => handlers.push(handler),
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
