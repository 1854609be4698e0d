import type { PanelTool } from '../messaging/agent-messages';

/**
 * A tool as the panel knows it, well made unless `patch` says otherwise: named, described, with one described
 * parameter, in the top frame. For the audit's tests.
 */
export function panelTool(patch: Partial<PanelTool> = {}): PanelTool {
  return {
    name: 'search_products',
    description: 'Search the catalog by words. Returns matching products with their price.',
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'Words to look for.' } }, required: ['query'] },
    annotations: { readOnlyHint: true },
    origin: 'https://shop.example',
    frameId: 0,
    ...patch,
  };
}
