/**
 * A loopback "model host" with huggingface.co's layout: `GET /{model}/resolve/{revision}/{file}`. It serves model
 * folders from memory, answers `Range` requests (transformers.js asks `bytes=0-0` for sizes), counts requests, and can
 * be told to cut a file off half-way (resume tests) or to send it slowly (cancel tests).
 *
 * Used by the Node tests and the benchmark; the browser E2E can start it too (CORS is open, as on huggingface.co).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the host answered (or cut off). */
export interface ModelHostRequest {
  method: string;
  /** `{model}/{file}`, revision left out. */
  path: string;
  range?: string;
  status: number;
}

/** A running model host. */
export interface ModelHost {
  /** Origin with a trailing slash, for `env.remoteHost` (`http://127.0.0.1:PORT/`). */
  url: string;
  /** Every request so far, in order. */
  requests: ModelHostRequest[];
  /** Full-body downloads (GET without a `bytes=0-0` probe) of `file` in `model`, or of any file when omitted. */
  downloads: (file?: string) => number;
  /** The next full download of a path ending in `file` sends `afterBytes` bytes, then the connection drops. */
  failOnce: (file: string, afterBytes: number) => void;
  /** Downloads of paths ending in `file` send `chunkBytes` every `delayMs` (until cleared with `slow(file)`). */
  slow: (file: string, pace?: { chunkBytes: number; delayMs: number }) => void;
  /** Add or replace a model's files. */
  addModel: (model: string, files: Map<string, string | Uint8Array>) => void;
  close: () => Promise<void>;
}

/** Start a model host on 127.0.0.1 (a free port) serving `models`: model id → (file path → content). */
export async function startModelHost(
  models: Record<string, Map<string, string | Uint8Array>> = {},
): Promise<ModelHost> {
  const store = new Map<string, Buffer>();
  const addModel = (model: string, files: Map<string, string | Uint8Array>) => {
    for (const [path, content] of files) store.set(`${model}/${path}`, Buffer.from(content));
  };
  for (const [model, files] of Object.entries(models)) addModel(model, files);

  const requests: ModelHostRequest[] = [];
  const failures = new Map<string, number>();
  const paces = new Map<string, { chunkBytes: number; delayMs: number }>();
  const endsWith = (map: Map<string, unknown>, path: string) => [...map.keys()].find((k) => path.endsWith(k));

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', '*');
    res.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Range, Accept-Ranges, ETag');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/(.+?)\/resolve\/[^/]+\/(.+)$/.exec(decodeURIComponent(url.pathname));
    const path = match ? `${match[1]}/${match[2]}` : url.pathname;
    const range = req.headers.range;
    const record = (status: number) => requests.push({ method: req.method ?? 'GET', path, range, status });
    const body = match ? store.get(path) : undefined;
    if (!body) {
      record(404);
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Entry not found');
      return;
    }
    const headers: Record<string, string> = {
      'Accept-Ranges': 'bytes',
      'Content-Type': path.endsWith('.json') ? 'application/json' : 'application/octet-stream',
      ETag: `"${body.length}"`,
    };
    const rangeMatch = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
    if (rangeMatch) {
      const start = Number(rangeMatch[1]);
      const end = Math.min(rangeMatch[2] ? Number(rangeMatch[2]) : body.length - 1, body.length - 1);
      if (start >= body.length) {
        record(416);
        res.writeHead(416, { 'Content-Range': `bytes */${body.length}` }).end();
        return;
      }
      record(206);
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${body.length}`, 'Content-Length': String(end - start + 1) });
      res.end(req.method === 'HEAD' ? undefined : body.subarray(start, end + 1));
      return;
    }
    record(200);
    res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const failKey = endsWith(failures, path);
    const cutAt = failKey !== undefined ? failures.get(failKey) : undefined;
    if (failKey !== undefined) failures.delete(failKey);
    const paceKey = endsWith(paces, path);
    const pace = paceKey !== undefined ? paces.get(paceKey) : undefined;
    const limit = cutAt ?? body.length;
    if (!pace) {
      res.write(body.subarray(0, limit));
      if (cutAt === undefined) res.end();
      else res.socket?.destroy();
      return;
    }
    let sent = 0;
    const timer = setInterval(() => {
      if (res.destroyed) {
        clearInterval(timer);
        return;
      }
      const next = Math.min(sent + pace.chunkBytes, limit);
      res.write(body.subarray(sent, next));
      sent = next;
      if (sent >= limit) {
        clearInterval(timer);
        if (cutAt === undefined) res.end();
        else res.socket?.destroy();
      }
    }, pace.delayMs);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    downloads: (file) =>
      requests.filter((r) => r.method === 'GET' && r.range !== 'bytes=0-0' && (!file || r.path.endsWith(file))).length,
    failOnce: (file, afterBytes) => failures.set(file, afterBytes),
    slow: (file, pace) => (pace ? paces.set(file, pace) : paces.delete(file)),
    addModel,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
