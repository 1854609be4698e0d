/**
 * A loopback stand-in for the cloud providers, so the real AI SDK provider packages can be tested without a
 * network: OpenAI Chat Completions (`POST …/chat/completions`), OpenAI Responses (`POST …/responses`) and
 * Anthropic Messages (`POST …/messages`), each streaming (SSE) or not, plus a model listing (`GET …/models`,
 * in Anthropic's shape when the request carries `anthropic-version`, else OpenAI's). Paths match by suffix, so
 * any base URL prefix works (`/v1`, `/api/v1`).
 *
 * Every generation request takes the next scripted reply, whatever the protocol; the reply is written in that
 * protocol. With no reply left the server answers 500 "provider-server: no scripted reply left", so a test that
 * makes one request too many fails loudly. Every request is recorded (method, path, lowercased headers, parsed
 * body) so a test can assert what a provider package actually sent: tools and schemas, the system prompt, the
 * tool results and the reasoning sent back.
 *
 * In a test:
 *   const server = await startProviderServer({ apiKey: 'sk-test' });   // 127.0.0.1, a free port
 *   server.script({ type: 'reply', toolCalls: [{ name: 'get_cart', input: {} }] }, { type: 'reply', text: 'Done.' });
 *   // baseURL: `${server.url}/v1`
 *   server.requests;            // RecordedRequest[]
 *   await server.close();
 *
 * As a process (browser E2E, Firefox smoke):
 *   npx tsx tests/servers/provider-server.ts --port 8787 [--api-key sk-test]
 *   prints "provider-server listening on http://127.0.0.1:8787" once ready. Then, over HTTP:
 *   POST /__script   {"replies": [ScriptedReply, …]}   appends replies
 *   POST /__models   {"models": ["gpt-test", …]}       sets the model listing
 *   POST /__reset                                      forgets replies and recorded requests
 *   GET  /__requests                                   the recorded requests as JSON
 *
 * Replies (ScriptedReply):
 *   { type: 'reply', reasoning?: { text, signature? }, text?, toolCalls?: [{ id?, name, input? | arguments? }],
 *     finish?: 'stop' | 'length', delayMs? }
 *       `signature` is Anthropic's thinking signature, or the Responses reasoning item's encrypted_content.
 *       `arguments` is the raw argument text (to send malformed JSON); `delayMs` waits before each streamed event.
 *   { type: 'error', status, message, errorType?, headers? }   an HTTP error in the protocol's error shape
 *   { type: 'drop', after, reply }   streams the first `after` events of `reply`, then destroys the connection
 *   { type: 'stream-error', after, reply, message, errorType? }   the first `after` events, then the protocol's
 *       error event (Anthropic `event: error`, Responses `error`, Chat Completions `data: {"error": …}`)
 *
 * With `apiKey` set, a request without that key (`Authorization: Bearer …` or `x-api-key`) gets a 401 in the
 * protocol's shape, as the real services answer (OpenAI's message even quotes part of the wrong key).
 * CORS is open (preflights answered), so extension pages and web pages can call it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  /** Call id; generated when absent (call_N, toolu_N). */
  id?: string;
  name: string;
  /** Arguments as a value; serialised as JSON. */
  input?: unknown;
  /** Raw argument text, sent as is (for malformed JSON); wins over `input`. */
  arguments?: string;
}

/** A successful model turn. */
export interface ScriptedTurn {
  type: 'reply';
  reasoning?: { text: string; signature?: string };
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** 'length' reports the output token limit was hit. Default: tool calls when there are any, else stop. */
  finish?: 'stop' | 'length';
  /** Wait this long before each streamed event (abort tests). */
  delayMs?: number;
}

/** An HTTP error in the protocol's error shape. */
export interface ScriptedError {
  type: 'error';
  status: number;
  message: string;
  /** The provider's error type; a sensible one for the status when absent. */
  errorType?: string;
  headers?: Record<string, string>;
}

/** A stream that breaks: the first `after` events of `reply`, then the connection is destroyed. */
export interface ScriptedDrop {
  type: 'drop';
  after: number;
  reply: ScriptedTurn;
}

/** A stream that fails in the protocol's own way: the first `after` events of `reply`, then an error event. */
export interface ScriptedStreamError {
  type: 'stream-error';
  after: number;
  reply: ScriptedTurn;
  message: string;
  /** Anthropic's error type (overloaded_error, api_error…) or OpenAI's code. Default: overloaded_error / server_error. */
  errorType?: string;
}

export type ScriptedReply = ScriptedTurn | ScriptedError | ScriptedDrop | ScriptedStreamError;

export type Protocol = 'chat' | 'responses' | 'anthropic' | 'models';

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  protocol: Protocol | 'unknown';
  /** Header names lowercased. */
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: any;
  rawBody: string;
}

export interface ProviderServerOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** When set, requests must carry this key. */
  apiKey?: string;
  /** Model ids for the listing. */
  models?: string[];
}

export interface ProviderServer {
  /** http://127.0.0.1:PORT (no trailing slash, no /v1). */
  url: string;
  port: number;
  /** Append replies, consumed in order by generation requests. */
  script: (...replies: ScriptedReply[]) => void;
  /** Every request received so far (control requests excluded). */
  readonly requests: RecordedRequest[];
  /** Replies not consumed yet. */
  readonly pending: number;
  setModels: (models: string[]) => void;
  /** Forget replies and recorded requests. */
  reset: () => void;
  close: () => Promise<void>;
}

const DEFAULT_MODELS = ['test-model', 'test-model-mini'];

/** Starts the server on 127.0.0.1. */
export async function startProviderServer(options: ProviderServerOptions = {}): Promise<ProviderServer> {
  const replies: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  let models = options.models ?? DEFAULT_MODELS;
  let counter = 0;
  const nextId = () => ++counter;

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `provider-server: ${String(error)}` } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    setCors(req, res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    let body: any;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }

    if (path.startsWith('/__')) {
      handleControl(req.method ?? 'GET', path, body, res);
      return;
    }

    const headers = lowerHeaders(req);
    const protocol = protocolOf(req.method ?? 'GET', path);
    requests.push({ method: req.method ?? 'GET', path, protocol, headers, body, rawBody });

    if (protocol === 'unknown') {
      sendJson(res, 404, { error: { message: `provider-server: no route for ${req.method} ${path}` } });
      return;
    }
    const errorProtocol = protocol === 'models' ? (headers['anthropic-version'] ? 'anthropic' : 'chat') : protocol;
    if (options.apiKey !== undefined && !hasKey(headers, options.apiKey)) {
      const given = headers['x-api-key'] ?? headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
      sendError(res, errorProtocol, {
        type: 'error',
        status: 401,
        message:
          errorProtocol === 'anthropic'
            ? 'invalid x-api-key'
            : `Incorrect API key provided: ${maskKey(given)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      });
      return;
    }
    if (protocol === 'models') {
      sendModels(res, headers, models);
      return;
    }

    const reply = replies.shift();
    if (!reply) {
      sendError(res, protocol, {
        type: 'error',
        status: 500,
        message: `provider-server: no scripted reply left for ${req.method} ${path}`,
      });
      return;
    }
    if (reply.type === 'error') {
      sendError(res, protocol, reply);
      return;
    }
    const turn = reply.type === 'drop' || reply.type === 'stream-error' ? reply.reply : reply;
    const model = typeof body?.model === 'string' ? body.model : 'test-model';
    const ids = assignIds(turn, protocol, nextId);
    if (body?.stream !== true) {
      sendJson(res, 200, completeBody(protocol, turn, ids, model));
      return;
    }
    const events = streamEvents(protocol, turn, ids, model);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    const limit = reply.type === 'drop' || reply.type === 'stream-error' ? reply.after : events.length;
    for (let i = 0; i < limit && i < events.length; i++) {
      if (turn.delayMs) await sleep(turn.delayMs);
      if (res.destroyed) return;
      res.write(events[i]);
    }
    if (reply.type === 'stream-error') {
      res.end(streamErrorEvent(protocol, reply));
      return;
    }
    if (reply.type === 'drop') {
      // Let the client take in what was sent (a real drop comes after a while), then destroy the socket: not
      // ending the response is what a dropped connection looks like to fetch.
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      await sleep(50);
      res.socket?.destroy();
      return;
    }
    res.end();
  }

  function handleControl(method: string, path: string, body: any, res: ServerResponse) {
    if (method === 'POST' && path === '/__script') {
      const list = Array.isArray(body?.replies) ? body.replies : null;
      if (!list) {
        sendJson(res, 400, { error: { message: 'POST /__script wants {"replies": [...]}' } });
        return;
      }
      replies.push(...list);
      sendJson(res, 200, { pending: replies.length });
    } else if (method === 'POST' && path === '/__models') {
      if (!Array.isArray(body?.models)) {
        sendJson(res, 400, { error: { message: 'POST /__models wants {"models": ["id", ...]}' } });
        return;
      }
      models = body.models.map(String);
      sendJson(res, 200, { models });
    } else if (method === 'POST' && path === '/__reset') {
      replies.length = 0;
      requests.length = 0;
      sendJson(res, 200, { ok: true });
    } else if (method === 'GET' && path === '/__requests') {
      sendJson(res, 200, { requests, pending: replies.length });
    } else {
      sendJson(res, 404, { error: { message: `provider-server: no control route ${method} ${path}` } });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    script: (...more) => {
      replies.push(...more);
    },
    get requests() {
      return requests;
    },
    get pending() {
      return replies.length;
    },
    setModels: (list) => {
      models = [...list];
    },
    reset: () => {
      replies.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function protocolOf(method: string, path: string): Protocol | 'unknown' {
  if (method === 'GET' && path.endsWith('/models')) return 'models';
  if (method !== 'POST') return 'unknown';
  if (path.endsWith('/chat/completions')) return 'chat';
  if (path.endsWith('/responses')) return 'responses';
  if (path.endsWith('/messages')) return 'anthropic';
  return 'unknown';
}

function hasKey(headers: Record<string, string>, key: string): boolean {
  return headers['x-api-key'] === key || headers.authorization === `Bearer ${key}`;
}

function maskKey(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-2)}`;
}

interface TurnIds {
  message: string;
  reasoning: string;
  response: string;
  calls: string[];
  items: string[];
}

function assignIds(turn: ScriptedTurn, protocol: Protocol, next: () => number): TurnIds {
  const n = next();
  const prefix = protocol === 'anthropic' ? 'toolu_' : 'call_';
  return {
    message: protocol === 'anthropic' ? `msg_${n}` : protocol === 'responses' ? `msg_${n}` : `chatcmpl-${n}`,
    reasoning: `rs_${n}`,
    response: `resp_${n}`,
    calls: (turn.toolCalls ?? []).map((call, i) => call.id ?? `${prefix}${n}_${i}`),
    items: (turn.toolCalls ?? []).map((_, i) => `fc_${n}_${i}`),
  };
}

function argumentsOf(call: ScriptedToolCall): string {
  return call.arguments ?? JSON.stringify(call.input ?? {});
}

/** Splits text into a few pieces so clients see several deltas. */
function chunks(text: string): string[] {
  const words = text.split(/(?<= )/);
  if (words.length <= 1) return [text];
  const third = Math.ceil(words.length / 3);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += third) out.push(words.slice(i, i + third).join(''));
  return out;
}

function finishOf(turn: ScriptedTurn): 'tool' | 'stop' | 'length' {
  if (turn.finish === 'length') return 'length';
  return turn.toolCalls?.length ? 'tool' : 'stop';
}

const usageChat = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };
const usageResponses = {
  input_tokens: 12,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 7,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 19,
};

function streamEvents(protocol: Protocol, turn: ScriptedTurn, ids: TurnIds, model: string): string[] {
  if (protocol === 'chat') return chatEvents(turn, ids, model);
  if (protocol === 'responses') return responsesEvents(turn, ids, model);
  return anthropicEvents(turn, ids, model);
}

function chatEvents(turn: ScriptedTurn, ids: TurnIds, model: string): string[] {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finish: string | null = null) =>
    sse(undefined, {
      id: ids.message,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const out = [chunk({ role: 'assistant', content: '' })];
  // reasoning_content is what OpenAI-compatible servers (vLLM, llama.cpp, Ollama, DeepSeek) stream.
  if (turn.reasoning) for (const piece of chunks(turn.reasoning.text)) out.push(chunk({ reasoning_content: piece }));
  if (turn.text) for (const piece of chunks(turn.text)) out.push(chunk({ content: piece }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    out.push(chunk({ tool_calls: [{ index, id: ids.calls[index], type: 'function', function: { name: call.name, arguments: '' } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: argumentsOf(call) } }] }));
  });
  const finish = finishOf(turn);
  out.push(chunk({}, finish === 'tool' ? 'tool_calls' : finish));
  out.push(sse(undefined, { id: ids.message, object: 'chat.completion.chunk', created, model, choices: [], usage: usageChat }));
  out.push('data: [DONE]\n\n');
  return out;
}

function responsesOutput(turn: ScriptedTurn, ids: TurnIds): any[] {
  const output: any[] = [];
  if (turn.reasoning) {
    output.push({
      type: 'reasoning',
      id: ids.reasoning,
      summary: [{ type: 'summary_text', text: turn.reasoning.text }],
      encrypted_content: turn.reasoning.signature ?? null,
    });
  }
  if (turn.text) {
    output.push({
      type: 'message',
      id: ids.message,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  }
  (turn.toolCalls ?? []).forEach((call, i) => {
    output.push({
      type: 'function_call',
      id: ids.items[i],
      call_id: ids.calls[i],
      name: call.name,
      arguments: argumentsOf(call),
      status: 'completed',
    });
  });
  return output;
}

function responsesEvents(turn: ScriptedTurn, ids: TurnIds, model: string): string[] {
  const created_at = Math.floor(Date.now() / 1000);
  let seq = 0;
  const ev = (type: string, data: object) => sse(type, { type, sequence_number: seq++, ...data });
  const base = { id: ids.response, object: 'response', created_at, model };
  const out = [ev('response.created', { response: { ...base, status: 'in_progress', output: [] } })];
  const output = responsesOutput(turn, ids);
  output.forEach((item, output_index) => {
    if (item.type === 'reasoning') {
      out.push(ev('response.output_item.added', { output_index, item: { ...item, summary: [] } }));
      out.push(
        ev('response.reasoning_summary_part.added', {
          item_id: item.id,
          output_index,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        }),
      );
      for (const delta of chunks(turn.reasoning!.text)) {
        out.push(ev('response.reasoning_summary_text.delta', { item_id: item.id, output_index, summary_index: 0, delta }));
      }
      out.push(ev('response.reasoning_summary_part.done', { item_id: item.id, output_index, summary_index: 0, part: item.summary[0] }));
      out.push(ev('response.output_item.done', { output_index, item }));
    } else if (item.type === 'message') {
      out.push(ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }));
      out.push(
        ev('response.content_part.added', {
          item_id: item.id,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        }),
      );
      for (const delta of chunks(turn.text!)) {
        out.push(ev('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta, logprobs: [] }));
      }
      out.push(ev('response.output_item.done', { output_index, item }));
    } else {
      out.push(ev('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } }));
      out.push(ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments }));
      out.push(ev('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments }));
      out.push(ev('response.output_item.done', { output_index, item }));
    }
  });
  const incomplete = turn.finish === 'length';
  out.push(
    ev(incomplete ? 'response.incomplete' : 'response.completed', {
      response: {
        ...base,
        status: incomplete ? 'incomplete' : 'completed',
        output,
        incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
        usage: usageResponses,
      },
    }),
  );
  return out;
}

function anthropicContent(turn: ScriptedTurn, ids: TurnIds): any[] {
  const content: any[] = [];
  if (turn.reasoning) {
    content.push({ type: 'thinking', thinking: turn.reasoning.text, signature: turn.reasoning.signature ?? '' });
  }
  if (turn.text) content.push({ type: 'text', text: turn.text });
  (turn.toolCalls ?? []).forEach((call, i) => {
    let input: unknown = call.input ?? {};
    if (call.arguments !== undefined) {
      try {
        input = JSON.parse(call.arguments);
      } catch {
        input = call.arguments;
      }
    }
    content.push({ type: 'tool_use', id: ids.calls[i], name: call.name, input });
  });
  return content;
}

function anthropicStop(turn: ScriptedTurn): string {
  const finish = finishOf(turn);
  return finish === 'tool' ? 'tool_use' : finish === 'length' ? 'max_tokens' : 'end_turn';
}

function anthropicEvents(turn: ScriptedTurn, ids: TurnIds, model: string): string[] {
  const ev = (type: string, data: object) => sse(type, { type, ...data });
  const out = [
    ev('message_start', {
      message: {
        id: ids.message,
        type: 'message',
        role: 'assistant',
        content: [],
        model,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    }),
    ev('ping', {}),
  ];
  let index = 0;
  if (turn.reasoning) {
    out.push(ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
    for (const thinking of chunks(turn.reasoning.text)) {
      out.push(ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } }));
    }
    if (turn.reasoning.signature) {
      out.push(ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: turn.reasoning.signature } }));
    }
    out.push(ev('content_block_stop', { index }));
    index++;
  }
  if (turn.text) {
    out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const text of chunks(turn.text)) out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    out.push(ev('content_block_stop', { index }));
    index++;
  }
  (turn.toolCalls ?? []).forEach((call, i) => {
    out.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: ids.calls[i], name: call.name, input: {} } }));
    const args = argumentsOf(call);
    const half = Math.ceil(args.length / 2);
    for (const partial_json of [args.slice(0, half), args.slice(half)]) {
      if (partial_json) out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }));
    }
    out.push(ev('content_block_stop', { index }));
    index++;
  });
  out.push(ev('message_delta', { delta: { stop_reason: anthropicStop(turn), stop_sequence: null }, usage: { output_tokens: 7 } }));
  out.push(ev('message_stop', {}));
  return out;
}

function streamErrorEvent(protocol: Protocol, error: ScriptedStreamError): string {
  if (protocol === 'anthropic') {
    return sse('error', { type: 'error', error: { type: error.errorType ?? 'overloaded_error', message: error.message } });
  }
  if (protocol === 'responses') {
    return sse('error', {
      type: 'error',
      sequence_number: 9999,
      code: error.errorType ?? 'server_error',
      message: error.message,
      param: null,
    });
  }
  return sse(undefined, { error: { message: error.message, type: error.errorType ?? 'server_error', param: null, code: null } });
}

function completeBody(protocol: Protocol, turn: ScriptedTurn, ids: TurnIds, model: string): object {
  const created = Math.floor(Date.now() / 1000);
  if (protocol === 'chat') {
    const finish = finishOf(turn);
    return {
      id: ids.message,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: turn.text ?? null,
            ...(turn.reasoning ? { reasoning_content: turn.reasoning.text } : {}),
            ...(turn.toolCalls?.length
              ? {
                  tool_calls: turn.toolCalls.map((call, i) => ({
                    id: ids.calls[i],
                    type: 'function',
                    function: { name: call.name, arguments: argumentsOf(call) },
                  })),
                }
              : {}),
          },
          finish_reason: finish === 'tool' ? 'tool_calls' : finish,
        },
      ],
      usage: usageChat,
    };
  }
  if (protocol === 'responses') {
    const incomplete = turn.finish === 'length';
    return {
      id: ids.response,
      object: 'response',
      created_at: created,
      model,
      status: incomplete ? 'incomplete' : 'completed',
      output: responsesOutput(turn, ids),
      incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
      usage: usageResponses,
    };
  }
  return {
    id: ids.message,
    type: 'message',
    role: 'assistant',
    model,
    content: anthropicContent(turn, ids),
    stop_reason: anthropicStop(turn),
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 7 },
  };
}

function sendError(res: ServerResponse, protocol: Protocol, error: ScriptedError) {
  const headers = error.headers ?? {};
  if (protocol === 'anthropic') {
    const type =
      error.errorType ??
      (error.status === 401
        ? 'authentication_error'
        : error.status === 403
          ? 'permission_error'
          : error.status === 429
            ? 'rate_limit_error'
            : error.status === 400
              ? 'invalid_request_error'
              : error.status === 529
                ? 'overloaded_error'
                : 'api_error');
    sendJson(res, error.status, { type: 'error', error: { type, message: error.message } }, headers);
    return;
  }
  const type =
    error.errorType ?? (error.status === 429 ? 'rate_limit_exceeded' : error.status >= 500 ? 'server_error' : 'invalid_request_error');
  const code = error.status === 401 ? 'invalid_api_key' : null;
  sendJson(res, error.status, { error: { message: error.message, type, param: null, code } }, headers);
}

function sendModels(res: ServerResponse, headers: Record<string, string>, models: string[]) {
  if (headers['anthropic-version']) {
    sendJson(res, 200, {
      data: models.map((id) => ({ type: 'model', id, display_name: displayName(id), created_at: '2026-01-01T00:00:00Z' })),
      has_more: false,
      first_id: models[0] ?? null,
      last_id: models.at(-1) ?? null,
    });
    return;
  }
  sendJson(res, 200, {
    object: 'list',
    data: models.map((id) => ({ id, object: 'model', created: 1_767_225_600, owned_by: 'provider-server' })),
  });
}

function displayName(id: string): string {
  return id
    .split(/[-_]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function sse(event: string | undefined, data: unknown): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function setCors(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  // "*" does not cover Authorization in the Fetch standard: echo what the preflight asks for.
  res.setHeader('access-control-allow-headers', String(req.headers['access-control-request-headers'] ?? '*'));
  res.setHeader('access-control-expose-headers', '*');
}

function lowerHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

// Standalone: `tsx tests/servers/provider-server.ts --port N [--api-key K]`.
if (process.argv[1] && import.meta.url === pathToFileURL(resolvePath(process.argv[1])).href) {
  const port = Number(argValue('--port') ?? 0);
  const server = await startProviderServer({ port, apiKey: argValue('--api-key') });
  console.log(`provider-server listening on ${server.url}`);
  const stop = () => {
    server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** A generation request's content, read the same way whatever the protocol, for assertions. */
export interface SentContent {
  /** The system prompt (all system/developer text joined). */
  system: string;
  /** The tools offered: name, description and the JSON Schema of the input. */
  tools: { name: string; description?: string; schema: any }[];
  /** The user's texts, in order. */
  userTexts: string[];
  /** Tool calls in the history sent back. */
  toolCalls: { id: string; name: string; input: unknown }[];
  /**
   * Tool results sent back, as text. A failed call is marked isError: Anthropic's is_error, or OpenAI's
   * `{"error": text}` wrapping (unwrapped here to its text).
   */
  toolResults: { id: string; output: string; isError?: boolean }[];
  /**
   * Reasoning sent back: Anthropic thinking (text, signature), Responses reasoning items (itemId, with text and
   * signature = encrypted_content when sent inline) and item references to reasoning (itemId only), and
   * OpenAI-compatible reasoning_content (text).
   */
  reasoning: { text?: string; signature?: string; itemId?: string }[];
}

/** Reads what a recorded chat/responses/anthropic request sent. */
export function readSent(request: RecordedRequest): SentContent {
  const body = request.body ?? {};
  const out: SentContent = { system: '', tools: [], userTexts: [], toolCalls: [], toolResults: [], reasoning: [] };
  const systems: string[] = [];
  const textOf = (content: any): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .map((c: any) => (typeof c === 'string' ? c : (c?.text ?? '')))
            .filter(Boolean)
            .join('\n')
        : '';
  const result = (id: string, output: string) => {
    const parsed = parse(output) as { error?: unknown } | undefined;
    const isError = typeof parsed === 'object' && parsed !== null && Object.keys(parsed).length === 1 && typeof parsed.error === 'string';
    out.toolResults.push(isError ? { id, output: parsed.error as string, isError: true } : { id, output });
  };
  function parse(text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  if (request.protocol === 'chat') {
    for (const m of body.messages ?? []) {
      if (m.role === 'system' || m.role === 'developer') systems.push(textOf(m.content));
      else if (m.role === 'user') out.userTexts.push(textOf(m.content));
      else if (m.role === 'assistant') {
        if (m.reasoning_content) out.reasoning.push({ text: m.reasoning_content });
        for (const call of m.tool_calls ?? []) {
          out.toolCalls.push({ id: call.id, name: call.function?.name, input: parse(call.function?.arguments ?? '') });
        }
      } else if (m.role === 'tool') result(m.tool_call_id, textOf(m.content));
    }
    out.tools = (body.tools ?? []).map((t: any) => ({
      name: t.function?.name,
      description: t.function?.description,
      schema: t.function?.parameters,
    }));
  } else if (request.protocol === 'responses') {
    if (typeof body.instructions === 'string') systems.push(body.instructions);
    for (const item of body.input ?? []) {
      if (item.role === 'system' || item.role === 'developer') systems.push(textOf(item.content));
      else if (item.role === 'user') out.userTexts.push(textOf(item.content));
      else if (item.type === 'reasoning') {
        out.reasoning.push({
          itemId: item.id,
          text: textOf(item.summary),
          ...(item.encrypted_content ? { signature: item.encrypted_content } : {}),
        });
      } else if (item.type === 'item_reference' && String(item.id).startsWith('rs_')) out.reasoning.push({ itemId: item.id });
      else if (item.type === 'function_call') out.toolCalls.push({ id: item.call_id, name: item.name, input: parse(item.arguments) });
      else if (item.type === 'function_call_output') result(item.call_id, textOf(item.output));
    }
    out.tools = (body.tools ?? [])
      .filter((t: any) => t.type === 'function')
      .map((t: any) => ({ name: t.name, description: t.description, schema: t.parameters }));
  } else if (request.protocol === 'anthropic') {
    systems.push(textOf(body.system));
    for (const m of body.messages ?? []) {
      const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
      for (const block of blocks) {
        if (m.role === 'user' && block.type === 'text') out.userTexts.push(block.text);
        else if (block.type === 'tool_result') {
          out.toolResults.push({ id: block.tool_use_id, output: textOf(block.content), ...(block.is_error ? { isError: true } : {}) });
        } else if (block.type === 'thinking') out.reasoning.push({ text: block.thinking, signature: block.signature });
        else if (block.type === 'redacted_thinking') out.reasoning.push({ signature: block.data });
        else if (block.type === 'tool_use') out.toolCalls.push({ id: block.id, name: block.name, input: block.input });
      }
    }
    out.tools = (body.tools ?? []).map((t: any) => ({ name: t.name, description: t.description, schema: t.input_schema }));
  }
  out.system = systems.filter(Boolean).join('\n\n');
  return out;
}
