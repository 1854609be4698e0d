import { downloadText } from '../shared/download-text';
import type { ChatStore } from './chat-store';

/** Export the conversation as Markdown or JSON (the host leaves out the key and secret fields). */
export function ExportMenu({ store, disabled }: { store: Pick<ChatStore, 'exportTranscript'>; disabled: boolean }) {
  const save = async (format: 'markdown' | 'json') => {
    const { text, fileName } = await store.exportTranscript(format);
    downloadText(text, fileName, format === 'json' ? 'application/json' : 'text/markdown');
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
      </div>
    </details>
  );
}
