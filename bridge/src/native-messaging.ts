/**
 * The browsers' native-messaging framing on a host's stdin and stdout: each message is UTF-8 JSON after its length
 * as a 32-bit unsigned integer in native byte order (little-endian on every platform the browsers ship for).
 * Chrome refuses a message from the host larger than 1 MB; it may send the host up to 64 MiB
 * (developer.chrome.com/docs/extensions/develop/concepts/native-messaging; Firefox's limits are no lower).
 */

/** The largest message a host may send the browser (Chrome's limit). */
export const MAX_TO_BROWSER_BYTES = 1024 * 1024;
/** The largest message this host takes from the browser. */
export const MAX_FROM_BROWSER_BYTES = 64 * 1024 * 1024;

/** One message framed for the browser; throws when it is larger than the browser takes. */
export function encodeNativeMessage(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  if (body.length > MAX_TO_BROWSER_BYTES) throw new RangeError(`message of ${body.length} bytes is over the browser's 1 MB limit`);
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length, 0);
  return Buffer.concat([header, body]);
}

/**
 * A reader of the browser's framed messages: feed it stdin's chunks in order. Each whole message goes to
 * `onMessage`; a length over {@link MAX_FROM_BROWSER_BYTES} or a body that is not JSON goes to `onError`, and the
 * reader then takes nothing more (the stream can no longer be trusted to be in step).
 */
export function createNativeMessageReader(onMessage: (message: unknown) => void, onError: (error: Error) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let broken = false;
  return (chunk) => {
    if (broken) return;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const length = pending.readUInt32LE(0);
      if (length > MAX_FROM_BROWSER_BYTES) {
        broken = true;
        onError(new RangeError(`the browser sent a message of ${length} bytes`));
        return;
      }
      if (pending.length < 4 + length) return;
      const body = pending.subarray(4, 4 + length).toString('utf8');
      pending = pending.subarray(4 + length);
      let message: unknown;
      try {
        message = JSON.parse(body);
      } catch {
        broken = true;
        onError(new SyntaxError('the browser sent a message that is not JSON'));
        return;
      }
      onMessage(message);
    }
  };
}

/**
 * A reader of newline-delimited JSON (the local socket between the MCP server and the host). A line longer than
 * `maxLineBytes` calls `onTooLong` and the reader takes nothing more; a line that is not JSON is skipped (and handed
 * to `onInvalid`).
 */
export function createLineReader(
  onMessage: (message: unknown) => void,
  options: { maxLineBytes: number; onTooLong: () => void; onInvalid?: (line: string) => void },
): (chunk: Buffer) => void {
  let pending = '';
  let broken = false;
  return (chunk) => {
    if (broken) return;
    pending += chunk.toString('utf8');
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim() !== '') {
        try {
          onMessage(JSON.parse(line));
        } catch {
          options.onInvalid?.(line);
        }
      }
      newline = pending.indexOf('\n');
    }
    if (Buffer.byteLength(pending, 'utf8') > options.maxLineBytes) {
      broken = true;
      options.onTooLong();
    }
  };
}
