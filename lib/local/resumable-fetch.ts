/** A download in progress: which URLs are its files, its cancel signal, and its byte counter. */
export interface ActiveDownload {
  owns: (url: string) => boolean;
  signal?: AbortSignal;
  onBytes: (url: string, bytes: number) => void;
  /** Reconnections without progress before a download fails. */
  retries: number;
  /** First wait before reconnecting; doubled each time. */
  retryDelayMs: number;
}

/**
 * transformers.js has one global `env.fetch`, while several providers (one per catalog model) share the context:
 * one fetch serves them all and finds the download a request belongs to by its URL.
 */
export const activeDownloads = new Set<ActiveDownload>();
let envBaseFetch: (input: string | URL, init?: RequestInit) => Promise<Response> = (input, init) => fetch(input, init);

/** The fetch that resumableFetch and its reconnections go through: the context's own (the provider sets it before each load). */
export function setBaseFetch(baseFetch: (input: string | URL, init?: RequestInit) => Promise<Response>): void {
  envBaseFetch = baseFetch;
}

/** Every transformers.js request: cancellable by its download's signal, and counted for its progress. */
export async function resumableFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const url = String(input);
  const current = [...activeDownloads].find((d) => d.owns(url));
  const signal = current?.signal
    ? init?.signal
      ? AbortSignal.any([init.signal, current.signal])
      : current.signal
    : (init?.signal ?? undefined);
  const isProbe = new Headers(init?.headers).has('Range');
  let response: Response;
  // Failed attempts without a byte received, shared with the body's reconnections below.
  let stalls = 0;
  for (;;) {
    try {
      response = await envBaseFetch(input, { ...init, signal });
      break;
    } catch (error) {
      // A connection that drops before the answer starts is retried too, from the beginning.
      if (!current || isProbe || signal?.aborted || stalls >= current.retries) throw error;
      await wait(current.retryDelayMs * 2 ** stalls, signal);
      stalls++;
    }
  }
  if (!current || isProbe || response.status !== 200 || !response.body) return response;
  return new Response(resumableBody(url, response, init, signal, current, stalls), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * The body of `first`, counted for progress; when the connection drops mid-file, it reconnects with
 * `Range: bytes=<received>-` (and `If-Range`, so a changed file is not spliced) and carries on, so the bytes already
 * received are not fetched again. After `retries` failed reconnections the error stands (the finished files stay
 * in the cache for the next try).
 */
function resumableBody(
  url: string,
  first: Response,
  init: RequestInit | undefined,
  signal: AbortSignal | undefined,
  download: ActiveDownload,
  initialStalls: number,
): ReadableStream<Uint8Array> {
  const length = Number(first.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  const validator = first.headers.get('etag') ?? first.headers.get('last-modified');
  let reader = (first.body as ReadableStream<Uint8Array>).getReader();
  let received = 0;

  // Reconnections are counted while no byte arrives between drops; a connection that keeps making progress
  // keeps being resumed.
  let receivedAtLastDrop = 0;
  let stalls = initialStalls;
  const reconnect = async (cause: unknown) => {
    if (received > receivedAtLastDrop) stalls = 0;
    receivedAtLastDrop = received;
    while (stalls < download.retries) {
      await wait(download.retryDelayMs * 2 ** stalls, signal);
      stalls++;
      const headers = new Headers(init?.headers);
      headers.set('Range', `bytes=${received}-`);
      if (validator) headers.set('If-Range', validator);
      let next: Response;
      try {
        next = await envBaseFetch(url, { ...init, headers, signal });
      } catch (error) {
        if (signal?.aborted) throw error;
        continue;
      }
      const range = next.headers.get('content-range') ?? '';
      if (next.status === 206 && next.body && range.startsWith(`bytes ${received}-`)) {
        reader = next.body.getReader();
        return;
      }
      await next.body?.cancel();
      // The host does not resume this file (no ranges, or it changed): give up on splicing.
      break;
    }
    throw cause;
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
          if (chunk.done && total !== undefined && received < total) {
            throw new Error(`The connection closed after ${received} of ${total} bytes.`);
          }
        } catch (error) {
          if (signal?.aborted || total === undefined) throw error;
          await reconnect(error);
          continue;
        }
        if (chunk.done) {
          controller.close();
          return;
        }
        received += chunk.value.byteLength;
        download.onBytes(url, chunk.value.byteLength);
        controller.enqueue(chunk.value);
        return;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
