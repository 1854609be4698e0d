import { describe, expect, it } from 'vitest';
import { createAgentPortPair } from '../testing/agent-port-pair';
import { createRequestLine } from './create-request-line';
import { portTransport } from './port-transport';

interface Asked {
  'echo/slow': { request: { text: string }; answer: string; update: string };
}

// Both ends of a line over two in-memory Ports with runtime Port semantics (lib/testing/agent-port-pair.ts).
describe('portTransport', () => {
  it('carries asks and updates, and fails what was pending when the other end disconnects', async () => {
    const { panel, host } = createAgentPortPair('line');
    let finish: ((text: string) => void) | undefined;
    createRequestLine<Record<never, never>, Asked>({
      transport: portTransport(host),
      handlers: {
        'echo/slow': ({ text }, { update }) => {
          update(`${text}…`);
          return new Promise((resolve) => (finish = resolve));
        },
      },
    });
    const line = createRequestLine<Asked>({ transport: portTransport(panel) });
    const updates: string[] = [];
    const first = line.ask('echo/slow', { text: 'one' }, { onUpdate: (u) => updates.push(u) });
    await expect.poll(() => finish).toBeDefined();
    finish?.('one!');
    expect(await first).toBe('one!');
    expect(updates).toEqual(['one…']);

    finish = undefined;
    const second = line.ask('echo/slow', { text: 'two' });
    await expect.poll(() => finish).toBeDefined();
    host.disconnect();
    await expect(second).rejects.toThrow('The line closed.');
  });
});
