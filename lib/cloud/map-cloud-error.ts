import type { AgentErrorCode } from '../agent/types';
import type { CloudProviderId } from './cloud-settings';
import { isOllamaBaseURL } from './resolve-model';

/** A failed cloud call, in words a person can act on. */
interface CloudErrorReport {
  error: string;
  code?: AgentErrorCode;
}

/** Where the failed call went, to name it and to keep the key out of every message. */
interface CloudErrorContext {
  provider: CloudProviderId;
  /** The base URL in use (the provider's own when unset). */
  baseURL?: string;
  /** Only ever used to redact it from provider messages. */
  apiKey?: string;
  /** The reply had begun arriving when the error came (a cut connection, not an unreachable host). */
  midStream?: boolean;
}

/** What the extension tells Ollama users when Ollama refuses or cannot be reached. */
export const OLLAMA_ORIGINS_HINT =
  'Ollama only answers browser extensions it was told to trust: start it with OLLAMA_ORIGINS=chrome-extension://*,moz-extension://* (for example `OLLAMA_ORIGINS="chrome-extension://*,moz-extension://*" ollama serve`), then try again.';

/** Fetch failures as each engine words them (Node/undici, Chrome, Firefox, Safari) and stream cuts. */
const NETWORK_MESSAGES = [
  'fetch failed',
  'failed to fetch',
  'networkerror when attempting to fetch resource.',
  'load failed',
  'network error',
  'terminated',
  'other side closed',
  'error in input stream',
];
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * Maps an error from a provider call (AI SDK APICallError, RetryError, a stream error, a bare fetch TypeError)
 * to the contract's codes and a message that says what to do:
 * - 401/403: the key was refused; check it in the extension's options page (a local Ollama's 403 is its
 *   origin check: the OLLAMA_ORIGINS hint instead);
 * - 429: rate_limited, with the provider's words (a spent quota and a burst limit read differently);
 * - 400/404/413/422: bad_request, with the provider's own message;
 * - no answer, or a connection cut mid-reply: network, naming the URL (plus the OLLAMA_ORIGINS hint for Ollama);
 * - 529 (Anthropic's "overloaded", also mid-stream): said as such;
 * - 5xx and anything else: the provider's message.
 *
 * The key never appears in a message: provider messages are redacted (OpenAI quotes part of a wrong key).
 */
export function mapCloudError(error: unknown, context: CloudErrorContext): CloudErrorReport {
  const cause = unwrapRetry(error);
  const who = providerLabel(context);
  const redact = (text: string) => redactKey(text, context.apiKey);
  // A status below 400 means the answer had begun (a 200 whose body then failed): judge it by its cause.
  const answered = statusOf(cause);
  const status = answered !== undefined && answered >= 400 ? answered : undefined;
  const providerMessage = redact(providerMessageOf(cause)).trim();
  const said = providerMessage ? `: ${providerMessage}${/[.!?…]$/.test(providerMessage) ? '' : '.'}` : '.';
  const ollama = context.provider === 'openai-compatible' && isOllamaBaseURL(context.baseURL);

  if (status === 401 || status === 403) {
    if (ollama && status === 403) return { error: `Ollama refused the request (403). ${OLLAMA_ORIGINS_HINT}` };
    return {
      error: `${who} refused the API key (${status}). Check the key in the extension's options page.`,
    };
  }
  if (status === 429 || /rate.?limit/i.test(typeOf(cause))) {
    return {
      code: 'rate_limited',
      error: `${who} is limiting requests for this key (429)${said} Wait a moment and try again.`,
    };
  }
  if (status === 400 || status === 404 || status === 413 || status === 422) {
    return { code: 'bad_request', error: `${who} rejected the request (${status})${said}` };
  }
  if (status === 529 || (status === 503 && /overloaded/i.test(typeOf(cause)))) {
    return { error: `${who} is overloaded right now (${status})${said} Try again in a moment.` };
  }
  if (status !== undefined) {
    return { error: `${who} failed (${status})${said} Try again in a moment.` };
  }
  if (isNetworkError(cause)) {
    const url = redact(urlOf(cause) ?? context.baseURL ?? '');
    const where = url ? ` ${url}` : ` ${who}`;
    const midStream = context.midStream === true || answered !== undefined || isStreamCut(cause);
    const base = midStream
      ? `The connection to${where} broke off in the middle of the reply. Check your connection and try again.`
      : `Could not reach${where}. Check your connection and the base URL in the extension's options page.`;
    return { code: 'network', error: ollama ? `${base} ${OLLAMA_ORIGINS_HINT}` : base };
  }
  if (/overloaded/i.test(typeOf(cause))) {
    return { error: `${who} is overloaded right now${said} Try again in a moment.` };
  }
  return { error: `${who} failed${said}` };
}

/** The text with every occurrence of the key replaced. Keys shorter than 8 characters are not real keys. */
export function redactKey(text: string, apiKey: string | undefined): string {
  const key = apiKey?.trim();
  if (!key || key.length < 8) return text;
  return text.split(key).join('[API key]');
}

function providerLabel(context: CloudErrorContext): string {
  if (context.provider === 'openai') return 'OpenAI';
  if (context.provider === 'anthropic') return 'Anthropic';
  if (isOllamaBaseURL(context.baseURL)) return 'Ollama';
  try {
    return `The server at ${new URL(context.baseURL ?? '').host}`;
  } catch {
    return 'The server';
  }
}

function unwrapRetry(error: unknown): unknown {
  let current = error;
  for (let i = 0; i < 4; i++) {
    if (isRecord(current) && current.name === 'AI_RetryError' && 'lastError' in current) current = current.lastError;
    else break;
  }
  return current;
}

function statusOf(error: unknown): number | undefined {
  if (!isRecord(error)) return undefined;
  const status = error.statusCode ?? error.status;
  return typeof status === 'number' ? status : undefined;
}

function typeOf(error: unknown): string {
  if (!isRecord(error)) return '';
  if (typeof error.type === 'string') return error.type;
  const data = error.data;
  if (isRecord(data) && isRecord(data.error) && typeof data.error.type === 'string') return data.error.type;
  return '';
}

function urlOf(error: unknown): string | undefined {
  if (!isRecord(error) || typeof error.url !== 'string') return undefined;
  try {
    const url = new URL(error.url);
    // Query strings can carry credentials on some gateways; the path names the endpoint well enough.
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/** The provider's own words: its JSON error message when there is one, else the error's message. */
function providerMessageOf(error: unknown): string {
  if (!isRecord(error)) return typeof error === 'string' ? error : '';
  const data = error.data;
  if (isRecord(data)) {
    const nested = isRecord(data.error) ? data.error.message : data.message;
    if (typeof nested === 'string' && nested) return nested;
  }
  if (typeof error.responseBody === 'string' && error.responseBody) {
    try {
      const body = JSON.parse(error.responseBody);
      const message = isRecord(body?.error) ? body.error.message : body?.message;
      if (typeof message === 'string' && message) return message;
    } catch {
      // not JSON: fall back to the error's message
    }
  }
  return typeof error.message === 'string' ? error.message : '';
}

function isNetworkError(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (isRecord(current) && !seen.has(current)) {
    seen.add(current);
    const message = typeof current.message === 'string' ? current.message.toLowerCase() : '';
    if (message.startsWith('cannot connect to api')) return true;
    if (NETWORK_MESSAGES.includes(message)) return true;
    if (typeof current.code === 'string' && NETWORK_CODES.has(current.code)) return true;
    current = current.cause;
  }
  return false;
}

/** Messages engines give a response body that stopped arriving. */
const CUT_MESSAGES = ['terminated', 'network error', 'other side closed', 'error in input stream'];

/** A body that stopped arriving (the answer had begun), as opposed to a host that never answered. */
function isStreamCut(error: unknown): boolean {
  if (!isRecord(error) || typeof error.message !== 'string') return false;
  return CUT_MESSAGES.includes(error.message.toLowerCase());
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null;
}
