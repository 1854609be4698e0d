// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { ExposedTool } from '../messaging/router-messages';
import type { ExposureLink } from './exposure-link';
import {
  exposedToolsChanged,
  linkExposure,
  PolyfillModelContext,
  runExposedTool,
  settleToolsPolicy,
} from './install-model-context-polyfill';

const win = () => window as unknown as Window & typeof globalThis;
const tick = () => new Promise((r) => setTimeout(r, 5));

/** A link that records what the polyfill publishes and lists `entries`. */
function fakeLink(entries: Awaited<ReturnType<ExposureLink['list']>> = []) {
  const published: ExposedTool[][] = [];
  const asked: string[][] = [];
  const link: ExposureLink = {
    publish: (tools) => published.push(tools),
    list: async (origins) => {
      asked.push(origins);
      return entries;
    },
    run: async () => 'ran',
  };
  return { link, published, asked };
}

describe('PolyfillModelContext: exposure across origins', () => {
  it('tells the extension which tools it exposes, by origin, as they come and go', async () => {
    const mc = new PolyfillModelContext(win());
    const { link, published } = fakeLink();
    linkExposure(mc, link);
    const controller = new AbortController();
    await mc.registerTool({ name: 'plain', description: 'Not exposed', execute: () => 1 });
    await mc.registerTool(
      { name: 'shared', description: 'Exposed', inputSchema: { type: 'object' }, execute: () => 2 },
      { exposedTo: ['https://a.example/some/path', 'https://A.example', 'https://b.example:8443'], signal: controller.signal },
    );
    expect(published).toEqual([
      [
        {
          name: 'shared',
          title: '',
          description: 'Exposed',
          inputSchemaJson: '{"type":"object"}',
          exposedTo: ['https://a.example', 'https://b.example:8443'],
        },
      ],
    ]);
    controller.abort();
    expect(published.at(-1)).toEqual([]);
  });

  it('asks for other origins only when getTools names them, and never for its own', async () => {
    const mc = new PolyfillModelContext(win());
    const { link, asked } = fakeLink([
      // An entry whose window is this document's own is never another origin's tool: left out.
      { frameId: 3, path: [], origin: 'https://b.example', name: 'theirs', title: '', description: 'd' },
    ]);
    linkExposure(mc, link);
    await mc.getTools();
    await mc.getTools({ fromOrigins: [location.origin] });
    expect(asked).toEqual([]);
    expect(await mc.getTools({ fromOrigins: ['https://b.example/x', location.origin] })).toEqual([]);
    expect(asked).toEqual([['https://b.example']]);
  });

  it('runs an exposed tool only for an origin it is exposed to, and fires toolchange when another origin’s changed', async () => {
    const mc = new PolyfillModelContext(win());
    linkExposure(mc, fakeLink().link);
    await mc.registerTool(
      { name: 'shared', description: 'd', execute: (input: unknown) => ({ got: input }) },
      { exposedTo: ['https://a.example'] },
    );
    await mc.registerTool({ name: 'plain', description: 'd', execute: () => 'plain' });
    const signal = new AbortController().signal;
    expect(await runExposedTool(mc, 'shared', 'https://a.example', '{"n":1}', signal)).toBe('{"got":{"n":1}}');
    await expect(runExposedTool(mc, 'shared', 'https://b.example', '{}', signal)).rejects.toMatchObject({ name: 'UnknownError' });
    await expect(runExposedTool(mc, 'plain', 'https://a.example', '{}', signal)).rejects.toMatchObject({ name: 'UnknownError' });
    let changes = 0;
    mc.ontoolchange = () => changes++;
    exposedToolsChanged(mc);
    await tick();
    expect(changes).toBe(1);
  });

  it('holds another origin’s change until the background says the frame may use tools, and drops it where it may not', async () => {
    // A frame below another origin, so the polyfill asks the background whether it may use tools (the `tools`
    // policy): the change that came with its bridge waits for the answer.
    const frameFor = () =>
      new Proxy(window, {
        get(target, key) {
          if (key === 'parent') return { origin: 'https://embedder.example' };
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' && !/^[A-Z]/.test(String(key)) ? value.bind(target) : value;
        },
      }) as unknown as Window & typeof globalThis;
    for (const allowed of [true, false]) {
      const mc = new PolyfillModelContext(frameFor());
      let changes = 0;
      mc.addEventListener('toolchange', () => changes++);
      exposedToolsChanged(mc);
      await tick();
      expect(changes).toBe(0);
      settleToolsPolicy(mc, allowed);
      await tick();
      await tick();
      expect(changes).toBe(allowed ? 1 : 0);
    }
  });
});
