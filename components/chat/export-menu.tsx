import { useState } from 'preact/hooks';
import { errorMessage } from '../../lib/shared/error-message';
import { downloadText } from '../shared/download-text';
import type { ChatStore } from './chat-store';

/**
 * Export the conversation as Markdown or JSON (the host leaves out the key and secret fields). An export the host
 * could not answer (it restarted meanwhile) says so, and the person can try again.
 */
export function ExportMenu({ store, disabled }: { store: Pick<ChatStore, 'exportTranscript'>; disabled: boolean }) {
  const [failed, setFailed] = useState<string | undefined>();
  const save = async (format: 'markdown' | 'json') => {
    setFailed(undefined);
    try {
      const { text, fileName } = await store.exportTranscript(format);
      downloadText(text, fileName, format === 'json' ? 'application/json' : 'text/markdown');
    } catch (error) {
      setFailed(`The export failed: ${errorMessage(error)}`);
    }
  };
  if (disabled) {
    return (
      <button type="button" disabled>
        Export
      </button>
    );
  }
  return (
    <details class="menu">
      <summary>Export</summary>
      <div class="menu-items">
        <button type="button" onClick={() => void save('markdown')}>
          Conversation as Markdown
        </button>
        <button type="button" onClick={() => void save('json')}>
          Conversation as JSON
        </button>
        {failed && (
          <p class="field-error" role="alert">
            {failed}
          </p>
        )}
      </div>
    </details>
  );
}
