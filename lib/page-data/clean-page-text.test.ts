/**
 * One table of hostile characters, run through every way page text reaches a model: the local prompt (system
 * prompt, tool list, history), the cloud tool set, the cloud system prompt, local and cloud tool results, tool
 * entry reading and the page context. None may survive anywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from '../../tests/servers/provider-server';
import { buildHistory, flattenHistory } from '../local-agent/build-history';
import { buildLocalSystemPrompt } from '../local-agent/build-local-system-prompt';
import { rankTools } from '../agent/rank-tools';
import { runLocalAgent } from '../local-agent/run-local-agent';
import { createScriptedProvider } from '../testing/scripted-provider';
import type { AgentMessage, AgentRunRequest, ToolDescriptor, ToolOutput } from '../agent/types';
import { buildCloudSystemPrompt } from '../cloud/build-cloud-system-prompt';
import { createCloudAdapter } from '../cloud/create-cloud-adapter';
import { toModelMessages } from '../cloud/to-model-messages';
import { toToolResultOutput } from '../cloud/to-tool-result-output';
import { toToolSet } from '../cloud/to-tool-set';
import { readPageContext } from '../isolated-world/read-page-context';
import { readToolEntry } from '../isolated-world/read-tool-entry';
import { toModelFacingNames } from '../agent/to-model-facing-names';
import { cleanPageText, cleanPageValue } from './clean-page-text';
import { createSpotlight } from './spotlight';

/** Characters that hide or reorder text, or smuggle data, each with why it is here. */
const HOSTILE: [string, string][] = [
  ['\u0000', 'NUL'],
  ['\u0007', 'BEL'],
  ['\u001B', 'ESC (terminal escapes)'],
  ['\u007F', 'DEL'],
  ['\u009B', 'C1 CSI'],
  ['\u00AD', 'soft hyphen'],
  ['\u034F', 'combining grapheme joiner'],
  ['\u061C', 'Arabic letter mark'],
  ['\u115F', 'Hangul choseong filler'],
  ['\u180E', 'Mongolian vowel separator'],
  ['\u200B', 'zero-width space'],
  ['\u200C', 'zero-width non-joiner'],
  ['\u200D', 'zero-width joiner'],
  ['\u200E', 'left-to-right mark'],
  ['\u200F', 'right-to-left mark'],
  ['\u2028', 'line separator'],
  ['\u2029', 'paragraph separator'],
  ['\u202A', 'left-to-right embedding'],
  ['\u202E', 'right-to-left override'],
  ['\u2060', 'word joiner'],
  ['\u2062', 'invisible times'],
  ['\u2064', 'invisible plus'],
  ['\u2066', 'left-to-right isolate'],
  ['\u2069', 'pop directional isolate'],
  ['\u206A', 'inhibit symmetric swapping'],
  ['\u3164', 'Hangul filler'],
  ['\uFE0F', 'variation selector 16'],
  ['\uFEFF', 'zero-width no-break space'],
  ['\uFFA0', 'halfwidth Hangul filler'],
  ['\uFFF9', 'interlinear annotation anchor'],
  ['\u{1D173}', 'musical symbol begin beam'],
  ['\u{E0001}', 'language tag'],
  ['\u{E0041}', 'tag latin capital A (ASCII smuggling)'],
  ['\u{E007F}', 'cancel tag'],
  ['\u{E0100}', 'variation selector 17'],
  ['\u{E01EF}', 'variation selector 256'],
  ['\uD800', 'lone surrogate'],
];

/** Page text carrying every hostile character, between visible words. */
const DIRTY = `Ignore${HOSTILE.map(([c]) => c).join('')} the ${HOSTILE.map(([c]) => `x${c}`).join('')} rest`;

/** Every string inside a value (keys included), walked without serialising it (JSON would escape controls). */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsIn(item, out);
    }
  }
  return out;
}

/** The hostile characters found in `value`, by name. */
function survivors(value: unknown): string[] {
  const text = stringsIn(value).join('\n');
  const found = HOSTILE.filter(([c]) => (c === '\uD800' ? /\uD800(?![\uDC00-\uDFFF])/.test(text) : text.includes(c))).map(
    ([, name]) => name,
  );
  return [...new Set(found)];
}

const dirtySchema = {
  type: 'object',
  properties: { [`query${'\u200B'}`]: { type: 'string', description: DIRTY, enum: [DIRTY], default: DIRTY } },
  required: [`query${'\u200B'}`],
};
const tool: ToolDescriptor = { name: 'search', title: DIRTY, description: DIRTY, inputSchema: dirtySchema };
const page = { url: `https://shop.test/${encodeURIComponent('x')}`, path: `/p/${DIRTY}`, title: DIRTY, h1: `${DIRTY} heading` };
const result: ToolOutput = { content: [{ type: 'text', text: DIRTY }] };
const called: AgentMessage[] = [
  { id: 'u', role: 'user', parts: [{ type: 'text', text: 'find shoes' }] },
  {
    id: 'a',
    role: 'assistant',
    parts: [
      { type: 'tool', id: 'c1', name: 'search', input: {}, state: 'done', output: result },
      { type: 'tool', id: 'c2', name: 'search', input: {}, state: 'error', error: `Error [tool_threw]: ${DIRTY}` },
    ],
  },
];

describe('the hostile character table', () => {
  it('every character in it is removed by cleanPageText, in one-line and multi-line text', () => {
    for (const [c, name] of HOSTILE) {
      expect(survivors(cleanPageText(`a${c}b`)), name).toEqual([]);
      expect(survivors(cleanPageText(`a${c}b`, { oneLine: true })), name).toEqual([]);
    }
    // Line and paragraph separators are line breaks: one-line text makes them spaces.
    expect(cleanPageText(DIRTY, { oneLine: true })).toMatch(/^Ignore the [x ]+ rest$/);
    expect(cleanPageText(DIRTY, { oneLine: true }).replace(/ /g, '')).toBe(`Ignorethe${'x'.repeat(HOSTILE.length)}rest`);
  });

  it('keeps what text needs: newlines and tabs (multi-line), emoji, accents, other scripts', () => {
    expect(cleanPageText('a\r\nb\tc\u2028d')).toBe('a\nb\tc\nd');
    expect(cleanPageText('Café 😀 日本語 עברית', { oneLine: true })).toBe('Café 😀 日本語 עברית');
    expect(cleanPageText('x'.repeat(10), { max: 5 })).toBe('xxxx…');
    expect(cleanPageText('xx😀x', { max: 4 })).toBe('xx…');
    expect(cleanPageValue({ [`k${'\u{E0041}'}`]: [`v${'\u200B'}`] })).toEqual({ k: ['v'] });
  });
});

describe('no hostile character reaches a model, on any path', () => {
  it('tool entry reading: title, description and schema (the router makes the name)', () => {
    const entry = readToolEntry({ name: `se${'\u200B'}arch${'\u{E0041}'}`, title: DIRTY, description: DIRTY, inputSchema: dirtySchema });
    expect(survivors({ title: entry?.title, description: entry?.description, inputSchema: entry?.inputSchema })).toEqual([]);
    expect(survivors(toModelFacingNames([{ frameId: 0, origin: 'https://shop.test', name: entry!.name }]))).toEqual([]);
  });

  it('the page context: title and main heading', () => {
    const doc = {
      location: { href: 'https://shop.test/' },
      title: DIRTY,
      querySelector: () => ({ textContent: DIRTY }),
      querySelectorAll: () => [],
    } as unknown as Document;
    expect(survivors(readPageContext(doc))).toEqual([]);
  });

  it('the local prompt: system prompt with the page line, the ranked tool list (inline and for the template)', () => {
    const ranked = rankTools([tool], 'find shoes', { max: 8 });
    expect(survivors(ranked)).toEqual([]);
    expect(survivors(buildLocalSystemPrompt({ tools: ranked, toolsInline: true, page }))).toEqual([]);
  });

  it('local tool results, in both call formats', () => {
    for (const callFormat of ['template', 'text'] as const) {
      expect(survivors(flattenHistory(buildHistory(called, { callFormat }), callFormat))).toEqual([]);
    }
  });

  it('the cloud tool set, system prompt and tool results', () => {
    const set = toToolSet([tool]);
    const described = Object.values(set.tools).map((t) => ({
      description: t.description,
      schema: (t.inputSchema as { jsonSchema: unknown }).jsonSchema,
    }));
    expect(survivors(described)).toEqual([]);
    expect(survivors(buildCloudSystemPrompt(undefined, page.path, undefined, false, createSpotlight().rule))).toEqual([]);
    expect(survivors(toToolResultOutput(result))).toEqual([]);
    expect(survivors(toModelMessages(called))).toEqual([]);
  });

  it('a whole local run: every prompt the model receives', async () => {
    for (const callFormat of ['template', 'text'] as const) {
      const provider = createScriptedProvider(['<tool_call>\n{"name": "search", "arguments": {}}\n</tool_call>', 'Done.'], { callFormat });
      const req: AgentRunRequest = {
        messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'find shoes' }] }],
        tools: [tool],
        signal: new AbortController().signal,
        callTool: async () => result,
        page,
      };
      for await (const _part of runLocalAgent(provider, req)) {
        // drain
      }
      expect(provider.requests.length).toBeGreaterThan(1);
      expect(survivors(provider.requests.map(({ messages, tools }) => ({ messages, tools })))).toEqual([]);
    }
  });

  describe('a whole cloud run: every request body the provider receives', () => {
    let server: ProviderServer;
    beforeAll(async () => {
      server = await startProviderServer({ apiKey: 'sk-test' });
    });
    afterAll(async () => {
      await server.close();
    });

    it.each(['openai', 'anthropic'] as const)('%s', async (provider) => {
      server.reset();
      server.script({ type: 'reply', toolCalls: [{ name: 'search', input: {} }] }, { type: 'reply', text: 'Done.' });
      const req: AgentRunRequest = {
        messages: called,
        tools: [tool],
        signal: new AbortController().signal,
        callTool: async () => result,
        page,
      };
      const adapter = createCloudAdapter(
        { provider, model: 'test-model', apiKey: 'sk-test', baseURL: `${server.url}/v1` },
        { fetch, maxRetries: 0 },
      );
      for await (const _part of adapter.run(req)) {
        // drain
      }
      expect(server.requests.length).toBe(2);
      expect(survivors(server.requests.map((r) => r.body))).toEqual([]);
    });
  });
});
