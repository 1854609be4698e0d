import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { createExportsSlice } from './create-exports-slice';
import { createTabSlice } from './create-tab-slice';
import { fakeAgentClient } from './fake-agent-client';

function setup() {
  const client = fakeAgentClient();
  const tabs = createTabSlice(client);
  const secretFields = signal<Record<string, string[]>>({ login: ['password'] });
  let n = 0;
  const exports = createExportsSlice(client, tabs, secretFields, () => `req-${++n}`);
  client.subscribe((event) => exports.receive(event));
  return { client, tabs, exports };
}

describe('createExportsSlice', () => {
  it('exports the followed tab’s conversation with the fields marked secret, and takes the answer to its own request', async () => {
    const { client, tabs, exports } = setup();
    await expect(exports.exportTranscript('markdown')).rejects.toThrow('The panel follows no tab.');
    tabs.follow(1, undefined);
    const exported = exports.exportTranscript('json');
    expect(client.sent).toEqual([
      { type: 'panel/export-transcript', tabId: 1, requestId: 'req-1', format: 'json', secretFields: { login: ['password'] } },
    ]);
    client.emit({ type: 'panel/transcript', tabId: 1, requestId: 'req-9', format: 'json', text: 'not ours', fileName: 'x.json' });
    client.emit({ type: 'panel/transcript', tabId: 1, requestId: 'req-1', format: 'json', text: '{}', fileName: 'chat.json' });
    await expect(exported).resolves.toEqual({ text: '{}', fileName: 'chat.json' });
  });

  it('has the host redact a value (the panel never holds the key)', async () => {
    const { client, exports } = setup();
    const redacted = exports.redact({ key: 'sk-secret' });
    expect(client.sent).toEqual([{ type: 'panel/redact', requestId: 'req-1', value: { key: 'sk-secret' } }]);
    client.emit({ type: 'panel/redacted', requestId: 'req-1', value: { key: '[redacted]' } });
    await expect(redacted).resolves.toEqual({ key: '[redacted]' });
  });
});
