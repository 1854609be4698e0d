import { describe, expect, it } from 'vitest';
import { runLocalAgent } from '../local-agent/run-local-agent';
import type { AgentRunRequest, ToolDescriptor } from '../agent/types';
import { toTemplateTool } from '../local/to-template-messages';
import { createScriptedProvider } from '../testing/scripted-provider';
import { previewOnDevice } from './preview-on-device';

const WORDS = ['hat', 'scarf', 'glove', 'boot', 'sock', 'belt', 'tie', 'coat', 'vest', 'cap', 'shirt', 'mug'];
/** Twelve tools, one per product word, the shirt one with an enum too long for the on-device prompt. */
const TOOLS: ToolDescriptor[] = WORDS.map((word) => ({
  name: `add_${word}`,
  description: `Add a ${word} to the cart.`,
  inputSchema: {
    type: 'object',
    properties: {
      colour: {
        type: 'string',
        description: 'Its colour.',
        ...(word === 'shirt' ? { enum: Array.from({ length: 30 }, (_, i) => `colour-${i}`) } : {}),
      },
    },
  },
}));
const PAGE = { url: 'https://shop.example/shirts?size=m', title: 'Shirts' };

/** The request runLocalAgent sends the engine in its first step, with the run's random delimiter named as the preview names it. */
async function firstStep(request: string, toolsInline: boolean) {
  const provider = createScriptedProvider(['Done.'], { toolsInline });
  const req: AgentRunRequest = {
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: request }] }],
    tools: TOOLS,
    signal: new AbortController().signal,
    callTool: async () => ({ content: [] }),
    page: PAGE,
    agent: { id: 'site', instructions: 'A small clothing shop.' },
  };
  for await (const _ of runLocalAgent(provider, req, { toolsInline })) {
    // Run to the end.
  }
  const sent = JSON.parse(JSON.stringify(provider.requests[0], (key, value) => (key === 'signal' ? undefined : value)));
  return JSON.parse(JSON.stringify(sent).replace(/page-data-[a-z0-9]+/g, 'page-data-preview'));
}

describe('previewOnDevice', () => {
  it('is exactly what the on-device loop sends in its first step: system prompt, request and the 8 tools it shows', async () => {
    const request = 'Add a blue shirt to my cart';
    const preview = previewOnDevice({
      tools: TOOLS,
      request,
      context: { page: PAGE, agent: { id: 'site', instructions: 'A small clothing shop.' } },
      model: { toolsInline: false, callFormat: 'template' },
    });
    const sent = await firstStep(request, false);
    expect(preview.messages).toEqual(sent.messages);
    // The page's eight tools, then the search tool, since four are left out.
    expect(preview.tools).toEqual(sent.tools.slice(0, -1));
    expect(sent.tools.at(-1)?.name).toBe('find_tools');
    expect(preview.search).toBe(true);
    expect(preview.templateTools).toEqual(sent.tools.map(toTemplateTool));
    expect(preview.tools).toHaveLength(8);
    expect(preview.messages[0].content).toContain('About this site:\nA small clothing shop.');
    expect(preview.messages[1]).toEqual({ role: 'user', content: request });
  });

  it('lists the tools inline for a model whose template has none, as the loop does', async () => {
    const preview = previewOnDevice({
      tools: TOOLS,
      request: 'a mug',
      context: { page: PAGE, agent: { id: 'site', instructions: 'A small clothing shop.' } },
      model: { toolsInline: true, callFormat: 'text' },
    });
    const sent = await firstStep('a mug', true);
    expect(preview.messages).toEqual(sent.messages);
    expect(preview.templateTools).toBeUndefined();
    expect(preview.messages[0].content).toContain('To call a tool, reply with only a JSON object');
  });

  it('says how every tool ranked, which were cut, what compaction took out, and estimates the tokens', () => {
    const preview = previewOnDevice({
      tools: TOOLS,
      request: 'a blue shirt',
      context: {},
      model: { toolsInline: false, callFormat: 'template' },
    });
    expect(preview.ranking[0]).toMatchObject({ name: 'add_shirt', rank: 1, shown: true });
    expect(preview.ranking.filter((r) => r.shown)).toHaveLength(8);
    expect(preview.ranking.filter((r) => !r.shown).map((r) => r.rank)).toEqual([9, 10, 11, 12]);
    expect(preview.cuts.add_shirt).toEqual([{ kind: 'enum', path: 'inputSchema.properties.colour.enum', from: 30, to: 24 }]);
    expect(preview.estimatedTokens).toBeGreaterThan(300);
    expect(preview.maxTools).toBe(8);
  });

  it('adds the site’s delegate tools and keeps to its tool filter', () => {
    const preview = previewOnDevice({
      tools: TOOLS,
      request: 'check out',
      context: {
        agent: {
          id: 'site',
          tools: ['add_hat'],
          subAgents: [{ id: 'checkout', name: 'Checkout', instructions: 'Pays.', tools: ['add_mug'] }],
        },
      },
      model: { toolsInline: false, callFormat: 'template' },
    });
    expect(preview.tools.map((t) => t.name)).toEqual(['add_hat', 'delegate_to_checkout']);
  });
});
