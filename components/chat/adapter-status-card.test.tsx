// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdapterStatus } from '../../lib/agent/types';
import type { AgentKind } from '../../lib/messaging/agent-messages';
import { AdapterStatusCard } from './adapter-status-card';

function renderCard(kind: AgentKind, status: AdapterStatus) {
  const noop = () => {};
  return render(
    <AdapterStatusCard adapter={{ kind, label: kind, status, models: [] }} onPrepare={noop} onCancel={noop} onOpenOptions={noop} />,
  );
}

describe('AdapterStatusCard', () => {
  afterEach(cleanup);

  it('words a check without progress for the adapter it belongs to', () => {
    renderCard('local', { state: 'loading' });
    expect(screen.getByRole('heading', { name: 'Checking' })).toBeTruthy();
    expect(screen.getByText('Looking for the model on this device…')).toBeTruthy();
    expect(screen.queryByText(/provider/)).toBeNull();
    cleanup();

    renderCard('cloud', { state: 'loading' });
    expect(screen.getByRole('heading', { name: 'Connecting' })).toBeTruthy();
    expect(screen.getByText('Checking the connection to the provider…')).toBeTruthy();
  });

  it('words a model read from this device as loading, never as downloading', () => {
    renderCard('local', { state: 'loading', progress: 0.5 });
    expect(screen.getByRole('heading', { name: 'Loading the model' })).toBeTruthy();
    expect(screen.getByText('Reading the model from this device: 50%.')).toBeTruthy();
    expect(screen.queryByText(/download/i)).toBeNull();
  });
});
