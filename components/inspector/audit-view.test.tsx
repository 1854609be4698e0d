// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PanelTool, TabSnapshot } from '../../lib/messaging/agent-messages';
import { panelTool } from '../../lib/testing/audit-tools';
import { AuditView } from './audit-view';
import { createAuditState } from './create-audit-state';
import { fakeInspectorStore } from './inspector-store-fake';

const downloads = vi.hoisted(() => [] as { text: string; fileName: string; type: string }[]);
vi.mock('../shared/download-text', () => ({
  downloadText: (text: string, fileName: string, type: string) => downloads.push({ text, fileName, type }),
}));

const ports = { scanForms: async () => [] as unknown, siteAgentFor: async () => undefined };

const snapshot = (tools: PanelTool[], url = 'https://shop.example/'): TabSnapshot => ({
  tabId: 3,
  messages: [],
  running: false,
  confirmations: [],
  tools,
  toolsKnown: true,
  page: { url },
});

function setup(tools: PanelTool[]) {
  const store = fakeInspectorStore();
  const audit = createAuditState(store, ports);
  render(<AuditView audit={audit} store={store} />);
  act(() => {
    store.tab.value = snapshot(tools);
  });
  return { store, audit };
}

afterEach(() => {
  cleanup();
  downloads.length = 0;
});

describe('AuditView', () => {
  it('audits the page by itself when opened, and shows each finding with its tool, field, why and fix', async () => {
    setup([panelTool({ name: 'delete_account', description: 'Deletes the account.', annotations: {} })]);
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('1 tool in 1 frame, 0 forms, 0 results: 1 error, 0 warnings, 0 info'),
    );
    const errors = screen.getByRole('region', { name: 'Errors (1)' });
    const [item] = within(errors).getAllByRole('listitem');
    expect(item.dataset.rule).toBe('annotation/consequential-missing');
    expect(item.dataset.tool).toBe('delete_account');
    expect(item.textContent).toContain('Field: annotations.consequentialHint');
    expect(item.textContent).toContain('Why it matters: Agents ask the person before a consequential call.');
    expect(item.textContent).toContain('Fix: Add annotations: { consequentialHint: true } when you register it.');
  });

  it('says when there is nothing to fix, and exports the report as Markdown and JSON', async () => {
    setup([panelTool()]);
    await waitFor(() => expect(screen.getByText(/No findings/)).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Export Markdown' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    expect(downloads.map((d) => [d.fileName, d.type])).toEqual([
      ['webmcp-audit.md', 'text/markdown'],
      ['webmcp-audit.json', 'application/json'],
    ]);
    expect(downloads[0].text).toContain('No findings.');
    expect(JSON.parse(downloads[1].text).findings).toEqual([]);
  });

  it('says plainly when the page has no tools, with where to start, rather than “No findings”', async () => {
    setup([]);
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('0 tools in 0 frames, 0 forms, 0 results: 0 errors, 0 warnings, 1 info'),
    );
    const [item] = within(screen.getByRole('region', { name: 'Info (1)' })).getAllByRole('listitem');
    expect(item.dataset.rule).toBe('page/no-tools');
    expect(item.textContent).toContain('This page offers agents no WebMCP tools');
    expect(item.textContent).toContain('Fix: Start with the WebMCP spec (https://webmachinelearning.github.io/webmcp/)');
    expect(screen.queryByText(/No findings/)).toBeNull();
  });

  it('shows which tools came through navigator.modelContext, and which of them only read without saying so', async () => {
    const legacy = { annotations: undefined, legacyApi: 'navigator.modelContext' as const };
    setup([
      panelTool({ name: 'get_quote', description: 'Get a price quote for a print job.', ...legacy }),
      panelTool({ name: 'add_to_cart', description: 'Add a print job to the cart.', ...legacy }),
    ]);
    const warnings = await screen.findByRole('region', { name: 'Warnings (2)' });
    const items = within(warnings).getAllByRole('listitem');
    expect(items.map((item) => [item.dataset.rule, item.dataset.tool])).toEqual([
      ['annotation/read-only-missing', 'get_quote'],
      ['api/legacy-navigator', ''],
    ]);
    expect(items[1].textContent).toContain(
      '2 tools are registered through navigator.modelContext, the 2025 API Chromium no longer has: get_quote, add_to_cart.',
    );
    expect(items[1].textContent).toContain('Field: navigator.modelContext');
  });

  it('says when the tab has moved on to another page since the audit', async () => {
    const { store } = setup([panelTool()]);
    await waitFor(() => expect(screen.getByText(/No findings/)).toBeTruthy());
    act(() => {
      store.tab.value = snapshot([], 'https://shop.example/cart');
    });
    expect(screen.getByRole('note').textContent).toBe(
      'The tab shows another page now: these findings are for https://shop.example/. Audit again for this one.',
    );
  });

  it('renders the page’s text as text: markup in a tool’s description creates no element', async () => {
    setup([panelTool({ name: 'x', description: '<img>' })]);
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('1 warning'));
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByText('The description is one word: “<img>”.')).toBeTruthy();
  });

  it('shows what each adapter would send for a typed request', async () => {
    setup([panelTool(), panelTool({ name: 'get_cart', title: 'Read the cart', description: 'Read the cart and its total.' })]);
    fireEvent.input(screen.getByLabelText('Request'), { target: { value: 'what is in my cart' } });
    const local = screen.getByRole('region', { name: 'On-device: Qwen3 0.6B' });
    expect(within(local).getByText(/2 of 2 tools shown · about \d+ tokens/)).toBeTruthy();
    const ranking = within(local).getByRole('list', { name: 'Tools ranked for this request' });
    expect(within(ranking).getAllByRole('listitem')[0].textContent).toMatch(/^get_cart shown · score/);
    expect(local.textContent).toContain('You are an assistant in the browser.');
    const cloud = screen.getByRole('region', { name: 'Cloud' });
    expect(cloud.textContent).toContain('2 tools, every one the site');
    expect(cloud.textContent).toContain('"name": "get_cart"');
  });
});
