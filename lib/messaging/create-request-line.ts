/**
 * The request line, for the extension (docs/architecture.md § Messages between contexts): asks by
 * `<channel>/<verb>` with ids, cancels that reach the other side's handler as an aborted signal, optional timeouts,
 * interim updates, notices, and every pending ask failed with one error when the line closes. It is written in the
 * bridge package (bridge/src/create-request-line.ts), whose link to the extension uses it too and which imports
 * nothing of the extension; the extension's transports are port-transport.ts (a runtime Port) and
 * worker-transport.ts (a Worker, a MessagePort, a worker's global).
 */
export {
  type AskOptions,
  type AskType,
  createRequestLine,
  LineClosedError,
  type AnswerContext,
  type LineMessage,
  type LineHandlers,
  type LineTransport,
  type RequestLine,
  type UpdateOf,
} from '../../bridge/src/create-request-line';
