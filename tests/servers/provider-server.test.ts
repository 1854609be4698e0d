import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ProviderServer, readSent, startProviderServer } from './provider-server';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer({ apiKey: 'sk-server-test-key' });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const openaiHeaders = { 'content-type': 'application/json', authorization: 'Bearer sk-server-test-key' };
const anthropicHeaders = { 'content-type': 'application/json', 'x-api-key': 'sk-server-test-key', 'anthropic-version': '2023-06-01' };

async function post(path: string, body: unknown, headers: Record<string, string> = openaiHeaders) {
  return fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

/** SSE events as [event name or undefined, parsed data or the raw "[DONE]"]. */
function parseSse(text: string): [string | undefined, any][] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
      return [event, data === '[DONE]' ? data : JSON.parse(data)];
    });
}

const turn = {
  type: 'reply' as const,
  reasoning: { text: 'Think about it first.', signature: 'sig-1' },
  text: 'Here is the cart.',
  toolCalls: [{ id: 'call_fixed', name: 'get_cart', input: { full: true } }],
};

describe('streaming protocols', () => {
  it('Chat Completions: role chunk, reasoning_content, content, tool call pieces, finish, usage, [DONE]', async () => {
    server.script(turn);
    const res = await post('/v1/chat/completions', { model: 'm', stream: true, messages: [] });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await res.text()).map(([, data]) => data);
    expect(events.at(-1)).toBe('[DONE]');
    const deltas = events.slice(0, -2).map((e) => e.choices[0].delta);
    expect(deltas[0]).toEqual({ role: 'assistant', content: '' });
    expect(deltas.map((d) => d.reasoning_content ?? '').join('')).toBe('Think about it first.');
    expect(deltas.map((d) => d.content ?? '').join('')).toBe('Here is the cart.');
    const toolPieces = deltas.flatMap((d) => d.tool_calls ?? []);
    expect(toolPieces[0]).toMatchObject({ index: 0, id: 'call_fixed', function: { name: 'get_cart' } });
    expect(toolPieces.map((p) => p.function.arguments).join('')).toBe('{"full":true}');
    expect(events.at(-3).choices[0].finish_reason).toBe('tool_calls');
    expect(events.at(-2).usage).toMatchObject({ total_tokens: 19 });
  });

  it('Responses: typed events with sequence numbers, reasoning item with encrypted content, completed', async () => {
    server.script(turn);
    const res = await post('/v1/responses', { model: 'm', stream: true, input: [] });
    const events = parseSse(await res.text());
    expect(events.every(([name, data]) => name === data.type)).toBe(true);
    expect(events.map(([, d]) => d.sequence_number)).toEqual(events.map((_, i) => i));
    const names = events.map(([name]) => name);
    expect(names[0]).toBe('response.created');
    expect(names.at(-1)).toBe('response.completed');
    expect(names).toContain('response.reasoning_summary_text.delta');
    expect(names).toContain('response.output_text.delta');
    expect(names).toContain('response.function_call_arguments.delta');
    const done = events.filter(([name]) => name === 'response.output_item.done').map(([, d]) => d.item);
    expect(done.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(done[0]).toMatchObject({ id: expect.stringMatching(/^rs_/), encrypted_content: 'sig-1' });
    expect(done[2]).toMatchObject({ call_id: 'call_fixed', name: 'get_cart', arguments: '{"full":true}' });
  });

  it('Anthropic Messages: thinking with a signature delta, text, tool_use with partial JSON, stop reason', async () => {
    server.script(turn);
    const res = await post('/v1/messages', { model: 'm', stream: true, messages: [] }, anthropicHeaders);
    const events = parseSse(await res.text());
    expect(events.map(([name]) => name).slice(0, 3)).toEqual(['message_start', 'ping', 'content_block_start']);
    const deltas = events.filter(([name]) => name === 'content_block_delta').map(([, d]) => d.delta);
    expect(
      deltas
        .filter((d) => d.type === 'thinking_delta')
        .map((d) => d.thinking)
        .join(''),
    ).toBe('Think about it first.');
    expect(deltas.find((d) => d.type === 'signature_delta')).toEqual({ type: 'signature_delta', signature: 'sig-1' });
    expect(
      deltas
        .filter((d) => d.type === 'input_json_delta')
        .map((d) => d.partial_json)
        .join(''),
    ).toBe('{"full":true}');
    const delta = events.find(([name]) => name === 'message_delta')?.[1];
    expect(delta.delta.stop_reason).toBe('tool_use');
    expect(events.at(-1)?.[0]).toBe('message_stop');
  });
});

describe('non-streaming replies', () => {
  it('answers each protocol with a complete body', async () => {
    server.script(turn, turn, turn);
    const chat = await (await post('/v1/chat/completions', { model: 'm', messages: [] })).json();
    expect(chat.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { content: 'Here is the cart.', tool_calls: [{ id: 'call_fixed', function: { name: 'get_cart' } }] },
    });
    const responses = await (await post('/v1/responses', { model: 'm', input: [] })).json();
    expect(responses.output.map((o: { type: string }) => o.type)).toEqual(['reasoning', 'message', 'function_call']);
    const anthropic = await (await post('/v1/messages', { model: 'm', messages: [] }, anthropicHeaders)).json();
    expect(anthropic.content.map((c: { type: string }) => c.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(anthropic.stop_reason).toBe('tool_use');
  });
});

describe('errors', () => {
  it('refuses a wrong key in each protocol’s shape', async () => {
    const openai = await post('/v1/responses', { stream: true }, { ...openaiHeaders, authorization: 'Bearer sk-wrong-key-123' });
    expect(openai.status).toBe(401);
    const body = await openai.json();
    expect(body.error).toMatchObject({ code: 'invalid_api_key', message: expect.stringContaining('sk-***23') });
    const anthropic = await post('/v1/messages', { stream: true }, { ...anthropicHeaders, 'x-api-key': 'nope' });
    expect(await anthropic.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    expect(server.pending).toBe(0);
  });

  it('sends scripted errors with their headers, and says when no reply is left', async () => {
    server.script({ type: 'error', status: 429, message: 'Slow down', headers: { 'retry-after-ms': '5' } });
    const limited = await post('/v1/chat/completions', { stream: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after-ms')).toBe('5');
    expect((await limited.json()).error).toMatchObject({ message: 'Slow down', type: 'rate_limit_exceeded' });
    const empty = await post('/v1/chat/completions', { stream: true });
    expect(empty.status).toBe(500);
    expect((await empty.json()).error.message).toBe('provider-server: no scripted reply left for POST /v1/chat/completions');
  });

  it('ends a stream with the protocol’s error event', async () => {
    server.script({ type: 'stream-error', after: 2, reply: { type: 'reply', text: 'a b c' }, message: 'Overloaded' });
    const events = parseSse(await (await post('/v1/messages', { stream: true }, anthropicHeaders)).text());
    expect(events).toHaveLength(3);
    expect(events[2]).toEqual(['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]);
  });

  it('drops the connection mid-stream', async () => {
    server.script({ type: 'drop', after: 3, reply: { type: 'reply', text: 'one two three four five six' } });
    const res = await post('/v1/messages', { stream: true }, anthropicHeaders);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });
});

describe('the rest of the API', () => {
  it('lists models in OpenAI’s or Anthropic’s shape', async () => {
    server.setModels(['alpha-1', 'beta-2']);
    const openai = await (await fetch(`${server.url}/v1/models`, { headers: openaiHeaders })).json();
    expect(openai).toMatchObject({ object: 'list', data: [{ id: 'alpha-1', object: 'model' }, { id: 'beta-2' }] });
    const anthropic = await (await fetch(`${server.url}/v1/models`, { headers: anthropicHeaders })).json();
    expect(anthropic).toMatchObject({
      data: [{ id: 'alpha-1', display_name: 'Alpha 1', type: 'model' }, { id: 'beta-2' }],
      has_more: false,
    });
  });

  it('records every request with lowercased headers and the parsed body, and reads it back per protocol', async () => {
    server.script({ type: 'reply', text: 'hi' });
    await (
      await post('/v1/messages', { model: 'm', system: 'Be brief.', messages: [{ role: 'user', content: 'Hello' }] }, anthropicHeaders)
    ).text();
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages', protocol: 'anthropic' });
    expect(request.headers['x-api-key']).toBe('sk-server-test-key');
    expect(readSent(request)).toMatchObject({ system: 'Be brief.', userTexts: ['Hello'] });
  });

  it('answers CORS preflights with the requested headers', async () => {
    const res = await fetch(`${server.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: { origin: 'chrome-extension://abc', 'access-control-request-headers': 'x-api-key,content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe('x-api-key,content-type');
  });
});

describe('as a standalone process', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.pid && child.exitCode === null) child.kill('SIGTERM');
  });

  it('starts on the given port and is scripted over HTTP', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'tests/servers/provider-server.ts', '--port', '0'], {
      cwd: new URL('../..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /provider-server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match) resolve(match[1]);
      });
      child!.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
    const scripted = await fetch(`${url}/__script`, {
      method: 'POST',
      body: JSON.stringify({ replies: [{ type: 'reply', text: 'From the script.' }] }),
    });
    expect(await scripted.json()).toEqual({ pending: 1 });
    const reply = await (
      await fetch(`${url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'x', messages: [] }) })
    ).json();
    expect(reply.choices[0].message.content).toBe('From the script.');
    const recorded = await (await fetch(`${url}/__requests`)).json();
    expect(recorded).toMatchObject({ pending: 0, requests: [{ path: '/v1/chat/completions', body: { model: 'x' } }] });
    await fetch(`${url}/__reset`, { method: 'POST' });
    expect((await (await fetch(`${url}/__requests`)).json()).requests).toEqual([]);
    const bad = await fetch(`${url}/__script`, { method: 'POST', body: '{}' });
    expect(bad.status).toBe(400);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }, 30_000);
});
