// @vitest-environment happy-dom
import { signal } from '@preact/signals';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import type { SharingState } from '../../lib/messaging/mcp-bridge-messages';
import type { SharingStore } from './create-sharing-store';
import { SharingBar } from './sharing-bar';
import { SharingSection } from './sharing-section';

const HOSTILE = '<img src=x onerror="alert(1)">';

function store(state: SharingState | undefined): SharingStore & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    state: signal(state),
    watch: (tabId) => void calls.push(['watch', tabId]),
    setEnabled: (enabled) => void calls.push(['enabled', enabled]),
    share: (tabId, scope) => void calls.push(['share', tabId, scope]),
    stop: (what) => void calls.push(['stop', what]),
    pair: (code) => void calls.push(['pair', code]),
  };
}

const base: SharingState = { enabled: true, link: { state: 'open' }, clients: [], sites: [], tabs: [], paired: false };
const tab = (confirmations: TabSnapshot['confirmations'] = []): TabSnapshot =>
  ({ tabId: 5, messages: [], running: false, confirmations, tools: [], toolsKnown: true }) as TabSnapshot;

describe('SharingBar', () => {
  afterEach(cleanup);

  it('shows nothing while sharing is off', () => {
    const { container } = render(<SharingBar sharing={store({ ...base, enabled: false })} tab={tab()} onConfirm={() => undefined} />);
    expect(container.innerHTML).toBe('');
  });

  it('offers to share this site or only this tab, and says so once shared, with Stop sharing', () => {
    const s = store({ ...base, tab: { tabId: 5, site: 'https://shop.example', shared: false } });
    render(<SharingBar sharing={s} tab={tab()} onConfirm={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Share this site' }));
    fireEvent.click(screen.getByRole('button', { name: 'Only this tab' }));
    expect(s.calls).toEqual([
      ['share', 5, 'site'],
      ['share', 5, 'tab'],
    ]);
    cleanup();
    const shared = store({ ...base, sites: ['https://shop.example'], tab: { tabId: 5, site: 'https://shop.example', shared: 'site' } });
    render(<SharingBar sharing={shared} tab={tab()} onConfirm={() => undefined} />);
    expect(screen.getByText(/shop\.example is shared with desktop agents/)).toBeTruthy();
  });

  it('shows who is connected, what each can reach and the questions they wait on, every name as text', () => {
    const onConfirm = vi.fn();
    const s = store({
      ...base,
      clients: [{ id: 'c', name: HOSTILE, version: '1' }],
      tabs: [{ tabId: 9, site: 'https://bank.example', title: HOSTILE }],
    });
    const { container } = render(
      <SharingBar
        sharing={s}
        tab={tab([
          {
            id: 'q1',
            callId: 'mcp-1',
            toolName: 'pay',
            allowAlways: true,
            prompt: `${HOSTILE} (desktop agent) asks: Allow pay on shop.example?`,
            input: '{\n  "amount": 5\n}',
            requester: HOSTILE,
          },
        ])}
        onConfirm={onConfirm}
      />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText(`Connected: ${HOSTILE} 1.`, { exact: false })).toBeTruthy();
    expect(screen.getByText(`bank.example, only the tab “${HOSTILE}”`)).toBeTruthy();
    expect(screen.getByText('{ "amount": 5 }', { normalizer: (t) => t.replace(/\s+/g, ' ') })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    expect(onConfirm).toHaveBeenCalledWith('q1', 'allow-once');
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(s.calls).toEqual([['stop', { tabId: 9 }]]);
  });

  it('shows a desktop agent’s secret argument masked, and in clear only after Reveal in that question', () => {
    const masked = '{\n  "user": "ada",\n  "password": "[redacted]"\n}';
    const clear = '{\n  "user": "ada",\n  "password": "hunter2-horse"\n}';
    const revealed = signal<Readonly<Record<string, string>>>({});
    const asked: string[] = [];
    const reveal = {
      revealed,
      reveal: (id: string) => void asked.push(id),
      hide: (id: string) => {
        const { [id]: _gone, ...rest } = revealed.value;
        revealed.value = rest;
      },
    };
    const question = (id: string) => ({
      id,
      callId: `mcp-${id}`,
      toolName: 'sign_in',
      allowAlways: true,
      prompt: `Claude Code (desktop agent) asks: Allow sign_in on shop.example? (${id})`,
      input: masked,
      masked: true as const,
      requester: 'Claude Code',
    });
    render(<SharingBar sharing={store(base)} tab={tab([question('q1'), question('q2')])} onConfirm={() => undefined} reveal={reveal} />);
    const [first, second] = screen.getAllByTitle('Arguments sign_in would receive');
    expect([first.textContent, second.textContent]).toEqual([masked, masked]);
    fireEvent.click(screen.getAllByRole('button', { name: 'Reveal secret values' })[0]);
    expect(asked).toEqual(['q1']);
    act(() => {
      revealed.value = { q1: clear };
    });
    expect([first.textContent, second.textContent]).toEqual([clear, masked]);
    fireEvent.click(screen.getByRole('button', { name: 'Hide secret values' }));
    expect(first.textContent).toBe(masked);
  });
});

describe('SharingSection', () => {
  afterEach(cleanup);

  it('is the switch, says why the bridge cannot run, and lists shared sites with Stop sharing', () => {
    const s = store({
      ...base,
      link: { state: 'failed', error: 'The bridge is not installed on this computer.' },
      sites: ['https://shop.example'],
    });
    render(<SharingSection sharing={s} />);
    const box = screen.getByLabelText('Share tools with desktop agents') as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('The bridge is not installed on this computer.');
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    fireEvent.click(box);
    expect(s.calls).toEqual([
      ['stop', { site: 'https://shop.example' }],
      ['enabled', false],
    ]);
  });
});
