// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { PanelTool, TabSnapshot } from '../../lib/messaging/agent-messages';
import { fakeInspectorStore } from './inspector-store-fake';
import { TOOLS_SHOWN_AT_FIRST, ToolsView } from './tools-view';

const snapshot = (count: number): TabSnapshot => ({
  tabId: 3,
  messages: [],
  running: false,
  confirmations: [],
  tools: Array.from(
    { length: count },
    (_, i): PanelTool => ({
      name: `tool_${i}`,
      description: `Tool number ${i}.`,
      inputSchema: { type: 'object', properties: {} },
      frameId: 0,
    }),
  ),
  toolsKnown: true,
  page: { url: 'https://shop.example/' },
});

afterEach(cleanup);

describe('ToolsView with hundreds of tools', () => {
  it('shows the first tools and the rest on request, each once', () => {
    const tab = snapshot(300);
    const { container } = render(<ToolsView tab={tab} store={fakeInspectorStore(tab)} />);
    const rows = () => container.querySelectorAll('.tool-list > li').length;
    expect(rows()).toBe(TOOLS_SHOWN_AT_FIRST);
    fireEvent.click(screen.getByRole('button', { name: `Show 200 more of 300 tools` }));
    expect(rows()).toBe(TOOLS_SHOWN_AT_FIRST + 200);
    fireEvent.click(screen.getByRole('button', { name: `Show 60 more of 300 tools` }));
    expect(rows()).toBe(300);
    expect(screen.queryByRole('button', { name: /more of 300 tools/ })).toBeNull();
    expect(container.textContent).toContain('tool_299');
  });

  it('shows every tool, with no button, when there are few', () => {
    const tab = snapshot(TOOLS_SHOWN_AT_FIRST);
    const { container } = render(<ToolsView tab={tab} store={fakeInspectorStore(tab)} />);
    expect(container.querySelectorAll('.tool-list > li')).toHaveLength(TOOLS_SHOWN_AT_FIRST);
    expect(screen.queryByRole('button', { name: /more of/ })).toBeNull();
  });
});
