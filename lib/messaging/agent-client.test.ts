import { describe, expect, it } from 'vitest';
import { createAgentClient } from './agent-client';
import { AGENT_PORT_NAME, HOST_LEFT_UNANSWERED, type PanelIntent } from './agent-messages';
import { createAgentPortPair } from '../testing/agent-port-pair';

/** The host's end of a port, as the port pair makes it. */
type HostPort = ReturnType<typeof createAgentPortPair>['host'];

/** Waits until `done()` holds, checking after each timer turn; the cap only names a hang on a busy machine. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** A host end that answers every bind with an empty snapshot and records what it got. */
function echoHost(received: PanelIntent[]) {
  return (port: HostPort & { disconnect(): void }) => {
    port.onMessage.addListener((m) => {
      const intent = m as PanelIntent;
      received.push(intent);
      if (intent.type === 'panel/bind')
        port.postMessage({
          type: 'panel/tab',
          snapshot: { tabId: intent.tabId, messages: [], running: false, confirmations: [], tools: [], toolsKnown: true },
        });
    });
  };
}

describe('createAgentClient', () => {
  it('holds intents until the host answers the bind, then sends them in order', async () => {
    const received: PanelIntent[] = [];
    const serve = echoHost(received);
    const client = createAgentClient({
      connect: () => {
        const pair = createAgentPortPair(AGENT_PORT_NAME);
        serve(pair.host);
        return pair.panel;
      },
    });
    client.send({ type: 'panel/send', tabId: 1, text: 'early', site: 'https://shop.test' });
    client.send({ type: 'panel/bind', tabId: 1 });
    expect(client.connected()).toBe(false);
    await until(() => received.length === 2, 'the bind and the waiting send');
    expect(client.connected()).toBe(true);
    expect(received.map((r) => r.type)).toEqual(['panel/bind', 'panel/send']);
    client.close();
  });

  it('reconnects after the host goes away (waking it first), binds again and sends what waited', async () => {
    const received: PanelIntent[] = [];
    const serve = echoHost(received);
    const hosts: (HostPort & { disconnect(): void })[] = [];
    let hostUp = false;
    let wakes = 0;
    const client = createAgentClient({
      connect: () => {
        const pair = createAgentPortPair(AGENT_PORT_NAME);
        hosts.push(pair.host);
        // No host yet: the Port opens and then drops, as runtime.connect does with no listener.
        if (hostUp) serve(pair.host);
        else pair.host.disconnect();
        return pair.panel;
      },
      wake: async () => {
        wakes++;
        hostUp = true;
      },
      retryDelayMs: 1,
    });
    const changes: boolean[] = [];
    client.onConnectionChange((c) => changes.push(c));
    client.send({ type: 'panel/bind', tabId: 3 });
    client.send({ type: 'panel/stop', tabId: 3 });
    await until(() => received.length === 2, 'the bind and the stop');
    expect(wakes).toBe(1);
    expect(received.map((r) => r.type)).toEqual(['panel/bind', 'panel/stop']);
    hosts.at(-1)!.disconnect();
    client.send({ type: 'panel/retry', tabId: 3 });
    await until(() => received.length === 4, 'the rebind and the retry');
    expect(received.map((r) => r.type)).toEqual(['panel/bind', 'panel/stop', 'panel/bind', 'panel/retry']);
    expect(changes).toEqual([true, false, true]);
    client.close();
  });

  it('binding another tab drops intents still waiting for the old one', async () => {
    const received: PanelIntent[] = [];
    const serve = echoHost(received);
    const client = createAgentClient({
      connect: () => {
        const pair = createAgentPortPair(AGENT_PORT_NAME);
        serve(pair.host);
        return pair.panel;
      },
    });
    client.send({ type: 'panel/bind', tabId: 1 });
    client.send({ type: 'panel/send', tabId: 1, text: 'for tab 1', site: 'https://shop.test' });
    client.send({ type: 'panel/bind', tabId: 2 });
    await until(() => client.connected() && received.some((r) => r.type === 'panel/bind' && r.tabId === 2), 'the second bind');
    expect(received.filter((r) => r.type === 'panel/send')).toEqual([]);
    client.close();
  });
});

describe('createAgentClient asks', () => {
  /** A client over port pairs to hosts that answer the bind, and on the request line `panel/redact` (when told). */
  function overHosts() {
    const received: unknown[] = [];
    const hosts: (HostPort & { disconnect(): void })[] = [];
    let answering = true;
    const client = createAgentClient({
      connect: () => {
        const pair = createAgentPortPair(AGENT_PORT_NAME);
        hosts.push(pair.host);
        pair.host.onMessage.addListener((m) => {
          received.push(m);
          const message = m as { type?: string; tabId?: number; line?: string; id?: number; request?: { value?: unknown } };
          if (message.type === 'panel/bind')
            pair.host.postMessage({
              type: 'panel/tab',
              snapshot: { tabId: message.tabId ?? 0, messages: [], running: false, confirmations: [], tools: [], toolsKnown: true },
            });
          if (message.line === 'ask' && answering)
            pair.host.postMessage({ line: 'answer', id: message.id, answer: { value: message.request?.value } } as never);
        });
        return pair.panel;
      },
      retryDelayMs: 1,
    });
    return {
      client,
      hosts,
      received,
      hold: () => (answering = false),
      asks: () => received.filter((m) => (m as { line?: string }).line === 'ask'),
    };
  }

  it('holds an ask until the host answers the bind, then asks on the line and resolves with the answer', async () => {
    const { client, asks } = overHosts();
    const answer = client.ask('panel/redact', { value: 'early' });
    await new Promise((r) => setTimeout(r, 5));
    expect(asks()).toEqual([]);
    client.send({ type: 'panel/bind', tabId: 1 });
    await expect(answer).resolves.toEqual({ value: 'early' });
    client.close();
  });

  it('an ask cancelled while it waits never goes out', async () => {
    const { client, asks } = overHosts();
    const cancel = new AbortController();
    const answer = client.ask('panel/redact', { value: 'never' }, { signal: cancel.signal });
    cancel.abort(new Error('not wanted'));
    await expect(answer).rejects.toThrow('not wanted');
    client.send({ type: 'panel/bind', tabId: 1 });
    await until(() => client.connected(), 'the host');
    await client.ask('panel/redact', { value: 'later' });
    expect(asks().map((a) => (a as { request: unknown }).request)).toEqual([{ value: 'later' }]);
    client.close();
  });

  it('fails what the host had not answered when the Port drops, and what is pending when the panel closes', async () => {
    const { client, hosts, hold } = overHosts();
    client.send({ type: 'panel/bind', tabId: 1 });
    await until(() => client.connected(), 'the host');
    hold();
    const dropped = client.ask('panel/redact', { value: 'x' });
    await new Promise((r) => setTimeout(r, 5));
    hosts[0].disconnect();
    await expect(dropped).rejects.toThrow(HOST_LEFT_UNANSWERED);
    await until(() => client.connected(), 'the next host');
    const closing = client.ask('panel/redact', { value: 'y' });
    client.close();
    await expect(closing).rejects.toThrow(HOST_LEFT_UNANSWERED);
    await expect(client.ask('panel/redact', { value: 'z' })).rejects.toThrow(HOST_LEFT_UNANSWERED);
  });
});
