import type { AdapterSummary } from '../../lib/messaging/agent-messages';
import { formatBytes } from '../shared/format-bytes';

interface AdapterStatusCardProps {
  adapter: AdapterSummary;
  onPrepare: () => void;
  onCancel: () => void;
  onOpenOptions: () => void;
}

/** True when the fix is in the options page (a key, a model, a base URL). */
export function pointsToOptions(text: string): boolean {
  return /options page|settings|api key/i.test(text);
}

/**
 * Explains every adapter status but ready: what it means and what the person can do. The download starts only from
 * the person's click on this card.
 */
export function AdapterStatusCard({ adapter, onPrepare, onCancel, onOpenOptions }: AdapterStatusCardProps) {
  const { status } = adapter;
  const name = adapter.kind === 'local' ? 'The on-device model' : 'The cloud model';
  switch (status.state) {
    case 'ready':
      return null;
    case 'needs-download': {
      const size = status.bytes ? formatBytes(status.bytes) : undefined;
      const selected = adapter.models.find((m) => m.selected);
      return (
        <section class="status-card" aria-labelledby="status-title">
          <h2 id="status-title">Download the model</h2>
          <p>
            {selected ? `${selected.label} runs` : 'The agent runs'} on this device, so your conversation never leaves it. It needs a
            one-time download{size ? ` of ${size}` : ''}; after that it works offline.
          </p>
          {status.note && <p class="note">{status.note}</p>}
          <button type="button" class="primary" onClick={onPrepare}>
            {size ? `Download (${size})` : 'Download'}
          </button>
        </section>
      );
    }
    case 'downloading': {
      const percent = Math.round(Math.max(0, Math.min(1, status.progress)) * 100);
      return (
        <section class="status-card" aria-labelledby="status-title">
          <h2 id="status-title">Downloading the model</h2>
          <progress max={100} value={percent} aria-label="Download progress" />
          <p class="progress-words">{percent}% downloaded. You can keep using the browser; the download goes on if you close this panel.</p>
          <button type="button" onClick={onCancel}>
            Cancel download
          </button>
        </section>
      );
    }
    case 'loading': {
      // Without progress this is a check, not a load: the cloud adapter asks its provider; the local one looks on
      // this device for the model's files.
      if (status.progress === undefined)
        return adapter.kind === 'local' ? (
          <section class="status-card compact" aria-labelledby="status-title">
            <h2 id="status-title">Checking</h2>
            <p>Looking for the model on this device…</p>
          </section>
        ) : (
          <section class="status-card compact" aria-labelledby="status-title">
            <h2 id="status-title">Connecting</h2>
            <p>Checking the connection to the provider…</p>
          </section>
        );
      const percent = Math.round(Math.max(0, Math.min(1, status.progress)) * 100);
      return (
        <section class="status-card" aria-labelledby="status-title">
          <h2 id="status-title">Loading the model</h2>
          <progress max={100} value={percent} aria-label="Loading progress" />
          <p class="progress-words">Reading the model from this device: {percent}%.</p>
        </section>
      );
    }
    case 'unavailable':
      return (
        <section class="status-card warn" aria-labelledby="status-title">
          <h2 id="status-title">{name} is not available</h2>
          <p>{status.reason}</p>
          {pointsToOptions(status.reason) && (
            <button type="button" class="primary" onClick={onOpenOptions}>
              Open settings
            </button>
          )}
        </section>
      );
    case 'error':
      return (
        <section class="status-card error" aria-labelledby="status-title">
          <h2 id="status-title">Setup failed</h2>
          <p>{status.error}</p>
          <div class="row">
            <button type="button" class="primary" onClick={onPrepare}>
              Try again
            </button>
            {pointsToOptions(status.error) && (
              <button type="button" onClick={onOpenOptions}>
                Open settings
              </button>
            )}
          </div>
        </section>
      );
  }
}
