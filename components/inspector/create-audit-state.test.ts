import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PanelTool, TabSnapshot } from '../../lib/messaging/agent-messages';
import { panelTool } from '../../lib/testing/audit-tools';
import { type AuditPorts, createAuditState, whenToolsSettle } from './create-audit-state';
import { fakeInspectorStore } from './inspector-store-fake';

const snapshot = (tools: PanelTool[], patch: Partial<TabSnapshot> = {}): TabSnapshot => ({
  tabId: 7,
  messages: [],
  running: false,
  confirmations: [],
  tools,
  toolsKnown: true,
  page: { url: 'https://shop.example/', title: 'Shop' },
  ...patch,
});

const FORMS = [
  {
    frameId: 0,
    result: {
      origin: 'https://shop.example',
      forms: [
        {
          label: '#search',
          hasDescription: false,
          autosubmit: false,
          fields: [{ name: 'q', type: 'text', label: 'Search', described: true }],
        },
      ],
    },
  },
];

function setup(tools: PanelTool[], ports: Partial<AuditPorts> = {}) {
  const store = fakeInspectorStore(snapshot(tools));
  const scanForms = vi.fn(async () => FORMS as unknown);
  const siteAgentFor = vi.fn(async () => ({ id: 'site', instructions: 'A small shop.' }));
  const audit = createAuditState(store, { scanForms, siteAgentFor, ...ports }, () => []);
  return { store, audit, scanForms, siteAgentFor };
}

afterEach(() => vi.useRealTimers());

describe('createAuditState', () => {
  it('audits the followed tab: its tools, the forms of its frames and its finished calls', async () => {
    const { store, audit, scanForms } = setup([panelTool({ name: 'zap', description: 'Zap.' })]);
    store.timeline.value = [
      { id: 'c1', at: 1, by: 'person', tool: 'zap', input: {}, state: 'done', output: 'x'.repeat(2000) },
      { id: 'c2', at: 2, by: 'agent', tool: 'zap', input: {}, state: 'error', output: 'Error [tool_threw]: no' },
    ];
    const report = await audit.run();
    expect(scanForms).toHaveBeenCalledWith(7);
    expect(report?.page).toEqual({ url: 'https://shop.example/', title: 'Shop' });
    expect(report?.looked).toEqual({ tools: 1, frames: 1, forms: 1, results: 1, examples: 0 });
    expect(report?.findings.map((f) => f.rule)).toEqual(['description/one-word', 'result/too-long', 'form/not-a-tool']);
    expect(audit.report.value).toBe(report);
    expect(audit.markdown()).toContain('### `zap`: description/one-word');
    expect(JSON.parse(audit.json())).toEqual(report);
    expect(audit.running.value).toBe(false);
  });

  it('still audits the tools when the page’s forms cannot be read, and says so', async () => {
    const { audit } = setup([panelTool()], { scanForms: () => Promise.reject(new Error('Cannot access a chrome:// URL')) });
    const report = await audit.run();
    expect(report?.looked.forms).toBeUndefined();
    expect(audit.notes.value).toEqual([
      "The page's forms could not be read (Cannot access a chrome:// URL), so the form checks did not run.",
    ]);
  });

  it('shows what each adapter would send for a typed request, with the site’s instructions and the chosen model', async () => {
    const { store, audit, siteAgentFor } = setup([panelTool(), panelTool({ name: 'get_cart', description: 'Read the cart.' })]);
    store.adapters.value = [
      {
        kind: 'local',
        label: 'On-device',
        status: { state: 'ready' },
        models: [{ id: 'chrome-built-in', label: 'Chrome built-in', brief: '', selected: true }],
      },
    ];
    expect(audit.preview.value).toBeUndefined();
    await vi.waitFor(() => expect(siteAgentFor).toHaveBeenCalledWith('https://shop.example/'));
    await Promise.resolve();
    audit.request.value = 'what is in my cart';
    const preview = audit.preview.value;
    expect(preview?.model).toEqual({ label: 'Chrome built-in', toolsInline: true, callFormat: 'text' });
    expect(preview?.onDevice.ranking[0].name).toBe('get_cart');
    expect(preview?.onDevice.messages[0].content).toContain('About this site:\nA small shop.');
    expect(preview?.onDevice.templateTools).toBeUndefined();
    expect(preview?.cloud.tools.map((t) => t.name)).toEqual(['search_products', 'get_cart']);
    expect(preview?.cloud.system).toContain('## About this site\nA small shop.');
  });

  it('without a model picked, previews the catalog’s recommended one', () => {
    const { audit } = setup([panelTool()]);
    audit.request.value = 'mugs';
    expect(audit.preview.value?.model).toMatchObject({
      label: 'Qwen3 0.6B',
      toolsInline: false,
      callFormat: 'template',
      contextTokens: 8192,
    });
  });
});

describe('whenToolsSettle', () => {
  it('resolves once the tab’s tools have stayed the same for the quiet time', async () => {
    vi.useFakeTimers();
    const store = fakeInspectorStore();
    let settled = false;
    void whenToolsSettle(store, 1000, 15_000).then(() => (settled = true));
    store.tab.value = snapshot([panelTool()]);
    await vi.advanceTimersByTimeAsync(800);
    store.tab.value = snapshot([panelTool(), panelTool({ name: 'get_cart' })]);
    await vi.advanceTimersByTimeAsync(800);
    expect(settled).toBe(false);
    // A snapshot with the same tools (the conversation changed) does not restart the wait.
    store.tab.value = snapshot([panelTool(), panelTool({ name: 'get_cart' })], { running: true });
    await vi.advanceTimersByTimeAsync(250);
    expect(settled).toBe(true);
  });
});
