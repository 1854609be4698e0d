import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { createExportsSlice, HOST_LEFT_UNANSWERED } from './create-exports-slice';
import { createTabSlice } from './create-tab-slice';
import { fakeAgentClient } from './fake-agent-client';
import { hostsOverPorts } from '../../lib/testing/hosts-over-ports';

function setup() {
  const client = fakeAgentClient();
  const tabs = createTabSlice(client);
  const secretFields = signal<Record<string, string[]>>({ login: ['password'] });
  const exports = createExportsSlice(client, tabs, secretFields);
  return { client, tabs, exports };
}

describe('createExportsSlice', () => {
  it('exports the followed tab’s conversation with the fields marked secret, and takes the answer to its own ask', async () => {
    const { client, tabs, exports } = setup();
    await expect(exports.exportTranscript('markdown')).rejects.toThrow('The panel follows no tab.');
    tabs.follow(1, undefined);
    const exported = exports.exportTranscript('json');
    expect(client.asks.map((a) => [a.type, a.request])).toEqual([
      ['panel/export-transcript', { tabId: 1, format: 'json', secretFields: { login: ['password'] } }],
    ]);
    client.asks[0].answer({ text: '{}', fileName: 'chat.json' });
    await expect(exported).resolves.toEqual({ text: '{}', fileName: 'chat.json' });
  });

  it('has the host redact a value (the panel never holds the key)', async () => {
    const { client, exports } = setup();
    const redacted = exports.redact({ key: 'sk-secret' });
    expect(client.asks.map((a) => [a.type, a.request])).toEqual([['panel/redact', { value: { key: 'sk-secret' } }]]);
    client.asks[0].answer({ value: { key: '[redacted]' } });
    await expect(redacted).resolves.toEqual({ key: '[redacted]' });
  });
});

describe('createExportsSlice over the agent client', () => {
  it('fails an export pending when the agent host restarts, with one clear error; the next export is answered', async () => {
    let answering = false;
    const { client, hosts } = hostsOverPorts({
      // Held until the test says (as if the host were still working on it).
      'panel/export-transcript': () => (answering ? { text: '# Chat', fileName: 'chat.md' } : undefined),
    });
    const tabs = createTabSlice(client);
    const exports = createExportsSlice(client, tabs, signal({}));
    tabs.follow(1, undefined);
    client.send({ type: 'panel/bind', tabId: 1 });
    await expect.poll(() => client.connected()).toBe(true);
    const exported = exports.exportTranscript('markdown');
    const redacted = exports.redact({ note: 'x' });
    await expect.poll(() => hosts[0].received.map((m) => m.type)).toEqual(['panel/bind', 'panel/export-transcript', 'panel/redact']);

    hosts[0].restart(); // The host document restarted: the new one knows nothing of the request.
    await expect(exported).rejects.toThrow(HOST_LEFT_UNANSWERED);
    await expect(redacted).rejects.toThrow(HOST_LEFT_UNANSWERED);

    answering = true;
    await expect.poll(() => client.connected()).toBe(true);
    await expect(exports.exportTranscript('markdown')).resolves.toEqual({ text: '# Chat', fileName: 'chat.md' });
    expect(hosts).toHaveLength(2);
    client.close();
  });
});
