import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProviderServer, readSent, startProviderServer } from '../../tests/servers/provider-server';
import type { AgentRunRequest, ToolDescriptor } from '../agent/types';
import { createCloudAdapter } from '../cloud/create-cloud-adapter';
import { previewCloud } from './preview-cloud';

const KEY = 'sk-preview-cloud';
let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer({ apiKey: KEY });
});
afterAll(async () => {
  await server.close();
});

const TOOLS: ToolDescriptor[] = [
  {
    name: 'get_cart',
    description: 'Read the cart:\u200B its lines and total.',
    inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} },
  },
  {
    name: 'cart.add',
    description: 'Add a product to the cart.',
    inputSchema: { type: 'object', properties: { productId: { type: 'string', description: 'Its id.' } }, required: ['productId'] },
  },
];
const PAGE = { url: 'https://shop.example/cart', title: 'Your cart' };
const AGENT = { id: 'site', instructions: 'A small clothing shop.' };

describe('previewCloud', () => {
  it('is exactly what the cloud adapter sends in its first step: system prompt, tools and request', async () => {
    server.script({ type: 'reply', text: 'Done.' });
    const req: AgentRunRequest = {
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is in my cart?' }] }],
      tools: TOOLS,
      signal: new AbortController().signal,
      callTool: async () => ({ content: [] }),
      page: PAGE,
      agent: AGENT,
    };
    const adapter = createCloudAdapter(
      { provider: 'openai-compatible', model: 'm', apiKey: KEY, baseURL: `${server.url}/v1` },
      { fetch, maxRetries: 0 },
    );
    for await (const _ of adapter.run(req)) {
      // Run to the end.
    }
    const sent = readSent(server.requests[0]);
    const preview = previewCloud({ tools: TOOLS, request: 'What is in my cart?', context: { page: PAGE, agent: AGENT } });
    expect(preview.system).toBe(sent.system.replace(/page-data-[a-z0-9]+/g, 'page-data-preview'));
    expect(preview.tools.map((t) => ({ name: t.name, description: t.description, schema: t.inputSchema }))).toEqual(sent.tools);
    expect(preview.messages.map((m) => m.content)).toEqual(sent.userTexts);
    expect(preview.tools[1]).toMatchObject({ name: 'cart_add', pageName: 'cart.add' });
    // The panel's tools carry the page's own name beside the model-facing one the router made.
    const renamed = previewCloud({
      tools: [{ ...TOOLS[0], name: 'wifi_password', originalName: 'wifi.password' } as ToolDescriptor],
      request: 'x',
      context: {},
    });
    expect(renamed.tools[0]).toMatchObject({ name: 'wifi_password', pageName: 'wifi.password' });
    expect(preview.system).toContain('The user is on the page /cart (“Your cart”).');
    expect(preview.system).toContain('## About this site\nA small clothing shop.');
  });
});
