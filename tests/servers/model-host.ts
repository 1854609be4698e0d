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
  /** Body bytes actually sent (less than the file when cut off). */
  bytes: number;
}

/** A running model host. */
export interface ModelHost {
  /** Origin with a trailing slash, for `env.remoteHost` (`http://127.0.0.1:PORT/`). */
  url: string;
  /** Every request so far, in order. */
  requests: ModelHostRequest[];
  /** Downloads (GETs other than `bytes=0-0` size probes, resumed ones included) of paths ending in `file`. */
  downloads: (file?: string) => number;
  /**
   * The next `times` downloads (whole or resumed with a Range) of a path ending in `file` send `afterBytes` bytes of
   * their body, then the connection drops; with `afterBytes` -1 it drops before answering.
   */
  failNext: (file: string, afterBytes: number, times?: number) => void;
  /** Body bytes sent for paths ending in `file`, size probes left out. */
  bytesSent: (file: string) => number;
  /** Downloads of paths ending in `file` send `chunkBytes` every `delayMs` (until cleared with `slow(file)`). */
  slow: (file: string, pace?: { chunkBytes: number; delayMs: number }) => void;
  /** Add or replace a model's files. */
  addModel: (model: string, files: Map<string, string | Uint8Array>) => void;
  close: () => Promise<void>;
}

/** Start a model host on 127.0.0.1 (a free port) serving `models`: model id → (file path → content). */
export async function startModelHost(models: Record<string, Map<string, string | Uint8Array>> = {}): Promise<ModelHost> {
  const store = new Map<string, Buffer>();
  const addModel = (model: string, files: Map<string, string | Uint8Array>) => {
    for (const [path, content] of files) store.set(`${model}/${path}`, Buffer.from(content));
  };
  for (const [model, files] of Object.entries(models)) addModel(model, files);

  const requests: ModelHostRequest[] = [];
  const failures = new Map<string, { afterBytes: number; times: number }>();
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
    const record = (status: number, bytes: number) => {
      const entry: ModelHostRequest = { method: req.method ?? 'GET', path, range, status, bytes };
      requests.push(entry);
      return entry;
    };
    const body = match ? store.get(path) : undefined;
    if (!body) {
      record(404, 0);
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Entry not found');
      return;
    }
    const headers: Record<string, string> = {
      'Accept-Ranges': 'bytes',
      'Content-Type': path.endsWith('.json') ? 'application/json' : 'application/octet-stream',
      ETag: `"${body.length}"`,
    };
    const rangeMatch = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
    const isProbe = range === 'bytes=0-0';
    const failKey = req.method === 'GET' && !isProbe ? endsWith(failures, path) : undefined;
    const failure = failKey !== undefined ? failures.get(failKey) : undefined;
    if (failure && failKey !== undefined) {
      failure.times -= 1;
      if (failure.times <= 0) failures.delete(failKey);
      if (failure.afterBytes < 0) {
        // Dropped before any answer.
        record(0, 0);
        res.socket?.destroy();
        return;
      }
    }
    let start = 0;
    let end = body.length - 1;
    if (rangeMatch) {
      start = Number(rangeMatch[1]);
      end = Math.min(rangeMatch[2] ? Number(rangeMatch[2]) : body.length - 1, body.length - 1);
      if (start >= body.length) {
        record(416, 0);
        res.writeHead(416, { 'Content-Range': `bytes */${body.length}` }).end();
        return;
      }
      res.writeHead(206, {
        ...headers,
        'Content-Range': `bytes ${start}-${end}/${body.length}`,
        'Content-Length': String(end - start + 1),
      });
    } else {
      res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
    }
    const part = body.subarray(start, end + 1);
    if (req.method === 'HEAD' || isProbe) {
      record(rangeMatch ? 206 : 200, req.method === 'HEAD' ? 0 : part.length);
      res.end(req.method === 'HEAD' ? undefined : part);
      return;
    }
    const paceKey = endsWith(paces, path);
    const pace = paceKey !== undefined ? paces.get(paceKey) : undefined;
    const limit = failure ? Math.min(failure.afterBytes, part.length) : part.length;
    const entry = record(rangeMatch ? 206 : 200, 0);
    // A cut-off lets the bytes already written reach the client first, as a dropped connection would.
    // A cut that would come after the last byte is no cut: destroying a finished keep-alive socket would break
    // whichever request reuses it next.
    const cut = failure !== undefined && limit < part.length;
    const finish = () => {
      if (cut) setTimeout(() => res.socket?.destroy(), 20);
      else res.end();
    };
    if (!pace) {
      res.write(part.subarray(0, limit), finish);
      entry.bytes = limit;
      return;
    }
    let sent = 0;
    const timer = setInterval(() => {
      if (res.destroyed) {
        clearInterval(timer);
        return;
      }
      const next = Math.min(sent + pace.chunkBytes, limit);
      res.write(part.subarray(sent, next));
      entry.bytes += next - sent;
      sent = next;
      if (sent >= limit) {
        clearInterval(timer);
        finish();
      }
    }, pace.delayMs);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    downloads: (file) => requests.filter((r) => r.method === 'GET' && r.range !== 'bytes=0-0' && (!file || r.path.endsWith(file))).length,
    failNext: (file, afterBytes, times = 1) => failures.set(file, { afterBytes, times }),
    bytesSent: (file) =>
      requests.filter((r) => r.method === 'GET' && r.range !== 'bytes=0-0' && r.path.endsWith(file)).reduce((n, r) => n + r.bytes, 0),
    slow: (file, pace) => (pace ? paces.set(file, pace) : paces.delete(file)),
    addModel,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
