import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { createAgentClient } from '../../lib/messaging/agent-client';
import { AGENT_PORT_NAME, type PanelIntent } from '../../lib/messaging/agent-messages';
import { createAgentPortPair } from '../../lib/testing/agent-port-pair';
import { createExportsSlice, HOST_LEFT_UNANSWERED } from './create-exports-slice';
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

/** One agent host after another over in-memory runtime Ports: each answers the bind, records what it got, and answers exports only when told. */
function hostsOverPorts() {
  const hosts: { received: PanelIntent[]; restart(): void }[] = [];
  let answerExports = false;
  const client = createAgentClient({
    connect: () => {
      const { panel, host } = createAgentPortPair(AGENT_PORT_NAME);
      const received: PanelIntent[] = [];
      hosts.push({ received, restart: () => host.disconnect() });
      host.onMessage.addListener((message) => {
        const intent = message as PanelIntent;
        received.push(intent);
        if (intent.type === 'panel/bind') {
          host.postMessage({
            type: 'panel/tab',
            snapshot: { tabId: intent.tabId, messages: [], running: false, confirmations: [], tools: [], toolsKnown: true },
          });
        } else if (intent.type === 'panel/export-transcript' && answerExports) {
          host.postMessage({
            type: 'panel/transcript',
            tabId: intent.tabId,
            requestId: intent.requestId,
            format: intent.format,
            text: '# Chat',
            fileName: 'chat.md',
          });
        }
      });
      return panel;
    },
    retryDelayMs: 1,
  });
  const tabs = createTabSlice(client);
  let n = 0;
  const exports = createExportsSlice(client, tabs, signal({}), () => `req-${++n}`);
  client.subscribe((event) => exports.receive(event));
  return { client, tabs, exports, hosts, answerFromNowOn: () => (answerExports = true) };
}

describe('createExportsSlice over the agent client', () => {
  it('fails an export pending when the agent host restarts, with one clear error; the next export is answered', async () => {
    const { client, tabs, exports, hosts, answerFromNowOn } = hostsOverPorts();
    tabs.follow(1, undefined);
    client.send({ type: 'panel/bind', tabId: 1 });
    await expect.poll(() => client.connected()).toBe(true);
    const exported = exports.exportTranscript('markdown');
    const redacted = exports.redact({ note: 'x' });
    await expect.poll(() => hosts[0].received.map((i) => i.type)).toEqual(['panel/bind', 'panel/export-transcript', 'panel/redact']);

    hosts[0].restart(); // The host document restarted: the new one knows nothing of the request.
    await expect(exported).rejects.toThrow(HOST_LEFT_UNANSWERED);
    await expect(redacted).rejects.toThrow(HOST_LEFT_UNANSWERED);

    answerFromNowOn();
    await expect.poll(() => client.connected()).toBe(true);
    await expect(exports.exportTranscript('markdown')).resolves.toEqual({ text: '# Chat', fileName: 'chat.md' });
    expect(hosts).toHaveLength(2);
    client.close();
  });
});
