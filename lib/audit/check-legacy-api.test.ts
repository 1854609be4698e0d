import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkLegacyApi } from './check-legacy-api';

describe('checkLegacyApi', () => {
  it('finds nothing in tools registered through document.modelContext.registerTool', () => {
    expect(checkLegacyApi({ tools: [panelTool(), panelTool({ name: 'get_cart', declarative: true })] })).toEqual([]);
  });

  it('says once per frame which tools came through navigator.modelContext, and what that costs in a native browser', () => {
    const tools = ['search_products', 'get_quote', 'add_to_cart'].map((name) => panelTool({ name, legacyApi: 'navigator.modelContext' }));
    expect(checkLegacyApi({ tools: [...tools, panelTool({ name: 'modern' })] })).toEqual([
      {
        rule: 'api/legacy-navigator',
        severity: 'warning',
        field: 'navigator.modelContext',
        origin: 'https://shop.example',
        frameId: 0,
        message:
          '3 tools are registered through navigator.modelContext, the 2025 API Chromium no longer has: search_products, get_quote, add_to_cart.',
        why: expect.stringContaining('In a browser with native WebMCP (Chrome with WebMCP on), navigator.modelContext is undefined'),
        fix: 'Register them with document.modelContext.registerTool(tool, { signal }) (abort the signal to unregister), when document.modelContext exists.',
      },
    ]);
  });

  it('tells provideContext apart, keeps frames apart, and counts past the first eight names', () => {
    const many = Array.from({ length: 10 }, (_, i) =>
      panelTool({ name: `t${i}`, originalName: `tool.${i}`, legacyApi: 'provideContext', frameId: 2, origin: 'https://maps.example' }),
    );
    const findings = checkLegacyApi({ tools: [panelTool({ name: 'hello', legacyApi: 'navigator.modelContext' }), ...many] });
    expect(findings.map((f) => [f.rule, f.frameId, f.message])).toEqual([
      ['api/legacy-navigator', 0, '1 tool is registered through navigator.modelContext, the 2025 API Chromium no longer has: hello.'],
      [
        'api/legacy-provide-context',
        2,
        '10 tools are registered through document.modelContext.provideContext(), from the 2025 API, which Chromium no longer has: tool.0, tool.1, tool.2, tool.3, tool.4, tool.5, tool.6, tool.7 and 2 more.',
      ],
    ]);
  });

  it('ignores a legacyApi value it does not know', () => {
    expect(checkLegacyApi({ tools: [panelTool({ legacyApi: 'toString' as never })] })).toEqual([]);
  });
});
