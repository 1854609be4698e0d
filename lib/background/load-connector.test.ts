// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { ISOLATED_KEYS_GLOBAL, PAGE_CONNECTOR_NAME } from '../webmcp/connector-keys';
import { type ConnectorInjection, createConnectorLoader, createFrameFinder, type FrameProbe } from './load-connector';

/** What each injection is, in the order they finished, and a loader over a scripting API that records them. */
function loader({ firefox = false, fail }: { firefox?: boolean; fail?: (injection: ConnectorInjection) => boolean } = {}) {
  const done: string[] = [];
  const injections: ConnectorInjection[] = [];
  let keys = 0;
  const describeIt = (i: ConnectorInjection) => `${i.world ?? 'ISOLATED'} ${'files' in i ? i.files.join() : `key ${i.args[1]}`}`;
  const load = createConnectorLoader({
    firefox,
    randomKey: () => `key-${++keys}`,
    executeScript: async (injection) => {
      injections.push(injection);
      // The scripts take a while; the isolated key is quick.
      await new Promise((resolve) => setTimeout(resolve, 'files' in injection ? 20 : 1));
      if (fail?.(injection)) throw new Error(`refused: ${describeIt(injection)}`);
      done.push(describeIt(injection));
      // scripting.executeScript's answer: a result per frame the injection ran in.
      return [
        { frameId: 0, result: undefined },
        { frameId: 4, documentId: 'd4' },
      ];
    },
  });
  return { load, done, injections };
}

describe('createConnectorLoader', () => {
  it('hands the page world its key last, once the isolated world holds it and both scripts ran', async () => {
    const { load, done } = loader();
    await load(7, { frameId: 3, documentId: 'doc' });
    expect(done.slice(0, 3).sort()).toEqual(['ISOLATED /frame-connector.js', 'ISOLATED key key-1', 'MAIN /page-connector.js']);
    expect(done[3]).toBe('MAIN key key-1');
    expect(done).toHaveLength(4);
  });

  it('makes a new key for every load', async () => {
    const { load, done } = loader();
    await load(7, { frameId: 3, documentId: 'doc' });
    await load(7, { frameId: 3, documentId: 'doc' });
    expect(done.filter((d) => d.includes(' key '))).toEqual([
      'ISOLATED key key-1',
      'MAIN key key-1',
      'ISOLATED key key-2',
      'MAIN key key-2',
    ]);
  });

  it('targets the document on Chrome, the frame on Firefox, every frame for a tab', async () => {
    const chrome = loader();
    await chrome.load(7, { frameId: 3, documentId: 'doc' });
    await chrome.load(7);
    const firefox = loader({ firefox: true });
    await firefox.load(7, { frameId: 3, documentId: 'doc' });
    expect(new Set(chrome.injections.map((i) => JSON.stringify(i.target)))).toEqual(
      new Set([JSON.stringify({ tabId: 7, documentIds: ['doc'] }), JSON.stringify({ tabId: 7, allFrames: true })]),
    );
    expect(new Set(firefox.injections.map((i) => JSON.stringify(i.target)))).toEqual(
      new Set([JSON.stringify({ tabId: 7, frameIds: [3] })]),
    );
  });

  it('loads several documents with one injection of each script (the frames on Firefox)', async () => {
    const chrome = loader();
    await chrome.load(7, [
      { frameId: 3, documentId: 'd3' },
      { frameId: 5, documentId: 'd5' },
    ]);
    const firefox = loader({ firefox: true });
    await firefox.load(7, [{ frameId: 3 }, { frameId: 5 }]);
    expect(chrome.injections).toHaveLength(4);
    expect(new Set(chrome.injections.map((i) => JSON.stringify(i.target)))).toEqual(
      new Set([JSON.stringify({ tabId: 7, documentIds: ['d3', 'd5'] })]),
    );
    expect(new Set(firefox.injections.map((i) => JSON.stringify(i.target)))).toEqual(
      new Set([JSON.stringify({ tabId: 7, frameIds: [3, 5] })]),
    );
  });

  it('loads each document on its own when the injection for several fails (one went away), so the others get theirs', async () => {
    const { load, injections } = loader({ fail: (i) => 'documentIds' in i.target && i.target.documentIds.includes('gone') });
    await expect(
      load(7, [
        { frameId: 3, documentId: 'd3' },
        { frameId: 4, documentId: 'gone' },
        { frameId: 5, documentId: 'd5' },
      ]),
    ).rejects.toThrow('refused');
    const targets = injections.filter((i) => 'files' in i && i.files[0] === '/frame-connector.js').map((i) => JSON.stringify(i.target));
    expect(targets).toEqual([
      JSON.stringify({ tabId: 7, documentIds: ['d3', 'gone', 'd5'] }),
      JSON.stringify({ tabId: 7, documentIds: ['d3'] }),
      JSON.stringify({ tabId: 7, documentIds: ['gone'] }),
      JSON.stringify({ tabId: 7, documentIds: ['d5'] }),
    ]);
  });

  it('still hands the page world its key when one script was refused (other frames of the tab took theirs), then reports it', async () => {
    const { load, done } = loader({ fail: (i) => 'files' in i && i.files[0] === '/frame-connector.js' });
    await expect(load(7)).rejects.toThrow('refused: ISOLATED /frame-connector.js');
    expect(done.at(-1)).toBe('MAIN key key-1');
  });

  it('hands over the key with functions that work from their source alone, as executeScript sends them', async () => {
    const { load, injections } = loader();
    await load(7, { frameId: 3 });
    const run = (i: ConnectorInjection) => {
      if (!('func' in i)) return;
      new Function('args', `return (${i.func.toString()})(...args)`)(i.args);
    };
    const proved: unknown[] = [];
    const bridge = Symbol.for(PAGE_CONNECTOR_NAME);
    const page = window as unknown as Record<symbol, unknown>;
    const isolated = globalThis as unknown as Record<string, unknown>;
    page[bridge] = (key: unknown) => proved.push(key);
    try {
      for (const injection of injections) run(injection);
      expect(isolated[ISOLATED_KEYS_GLOBAL]).toEqual(['key-1']);
      expect(proved).toEqual(['key-1']);
    } finally {
      delete page[bridge];
      delete isolated[ISOLATED_KEYS_GLOBAL];
    }
  });
});

describe('createFrameFinder', () => {
  it('finds every frame of the tab with one injection, and tells those with the bridge from those without', async () => {
    const injections: FrameProbe[] = [];
    const find = createFrameFinder(async (injection) => {
      injections.push(injection);
      // scripting.executeScript's answer: one result per frame, the function's return value in `result`.
      return [
        { frameId: 0, documentId: 'top', result: 'runs' },
        { frameId: 3, documentId: 'middle', result: 'none' },
        { frameId: 4, documentId: 'blank', result: 'pending' },
        { frameId: 5, result: null },
      ];
    });
    expect(await find(7)).toEqual([
      { frameId: 0, documentId: 'top', hasConnector: true },
      { frameId: 3, documentId: 'middle', hasConnector: false },
      { frameId: 4, documentId: 'blank', hasConnector: false, pending: true },
      { frameId: 5, hasConnector: false },
    ]);
    expect(injections.map((i) => i.target)).toEqual([{ tabId: 7, allFrames: true }]);
    // The probe reads the flag the bridge sets in the isolated world, nothing else.
    const global = globalThis as { webmcpAgentBridge?: unknown };
    expect(injections[0].func()).toBe('none');
    global.webmcpAgentBridge = document;
    expect(injections[0].func()).toBe('runs');
    // A mark left by the frame's initial about:blank, whose window the next document kept, is not a bridge for it.
    global.webmcpAgentBridge = document.implementation.createHTMLDocument('initial about:blank');
    expect(injections[0].func()).toBe('none');
    delete global.webmcpAgentBridge;
  });

  it("tells a frame's initial about:blank that its document is about to replace, by the frame element's src", () => {
    let probe: FrameProbe['func'] = () => 'none';
    void createFrameFinder(async (injection) => {
      probe = injection.func;
      return [];
    })(7);
    // The probe as executeScript runs it, from its source alone, in a frame whose global is this one.
    const run = (attributes: Record<string, string>, url = 'about:blank') => {
      const element = document.createElement('iframe');
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      const frameGlobal = { document: { URL: url }, frameElement: element };
      return new Function('globalThis', `return (${probe.toString()})()`)(frameGlobal);
    };
    expect(run({ src: '/next.html' })).toBe('pending');
    expect(run({ srcdoc: '<p>soon</p>' })).toBe('pending');
    expect(run({ src: 'about:blank' })).toBe('none');
    expect(run({ src: 'javascript:void 0' })).toBe('none');
    expect(run({})).toBe('none');
    // Its document came: the frame is not pending any more.
    expect(run({ src: '/next.html' }, 'http://localhost:3000/next.html')).toBe('none');
  });
});
