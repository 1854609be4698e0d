// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { FakeChromeTool } from '../../tests/fixtures/fake-chrome-tool';
import { MAX_TOOL_BYTES } from '../messaging/router-messages';
import { listFrameTools, toolForm } from './list-frame-tools';

/** Native WebMCP cannot run in happy-dom: a stand-in ModelContext listing Chrome-shaped Tool objects. */
const nativeListing = (tools: unknown[]) =>
  Object.assign(new EventTarget(), { getTools: async () => tools, executeTool: async () => null });
const win = window as unknown as Window & typeof globalThis;
const entry = (name: string, extra: Record<string, unknown> = {}) =>
  new FakeChromeTool({ name, title: null, description: `${name} does things`, inputSchema: null, source: win, ...extra });

afterEach(() => {
  document.body.innerHTML = '';
});

describe('listFrameTools', () => {
  it('lists this frame’s native tools only, leaves out one too heavy (counted), and keeps native’s entries for calls', async () => {
    const native = nativeListing([
      entry('search'),
      entry('theirs', { source: {} }),
      entry('heavy', { description: 'x'.repeat(MAX_TOOL_BYTES + 1) }),
      entry('search'),
    ]);
    const { report, nativeTools } = await listFrameTools({ win, doc: document, native });
    expect(report.tools.map((t) => t.name)).toEqual(['search']);
    expect(report.oversized).toBe(1);
    expect(report.url).toBe(win.location.href);
    expect([...nativeTools.keys()]).toEqual(['search']);
  });

  it('a native tool with a form of its name is a form’s; without toolautosubmit it waits for the person', async () => {
    document.body.innerHTML = `<form toolname="send" tooldescription="Sends"></form><form toolname="go" tooldescription="Goes" toolautosubmit></form>`;
    const { report } = await listFrameTools({ win, doc: document, native: nativeListing([entry('send'), entry('go'), entry('plain')]) });
    expect(report.tools.map((t) => [t.name, t.declarative === true, t.needsConfirmation === true])).toEqual([
      ['send', true, true],
      ['go', true, false],
      ['plain', false, false],
    ]);
    expect(toolForm(document, 'go')?.getAttribute('tooldescription')).toBe('Goes');
    expect(toolForm(document, 'nope')).toBeUndefined();
  });

  it('says what the read carried: every frame’s entries and their text, measured no further than cheaply', async () => {
    const schema = JSON.stringify({ type: 'object', properties: { q: { type: 'string' } } });
    const light = await listFrameTools({
      win,
      doc: document,
      native: nativeListing([entry('search', { inputSchema: schema }), entry('theirs', { source: {} })]),
    });
    // The other frame's entry counts too: native's answer carried it, and every frame of the tree reads it.
    expect(light.load).toEqual({ entries: 2, chars: 'search does things'.length + schema.length + 2 + 'theirs does things'.length + 4 });
    expect(light.framesRead).toBe(2);
    const heavy = await listFrameTools({
      win,
      doc: document,
      native: nativeListing([entry('theirs', { source: {}, description: 'x'.repeat(20_000) })]),
    });
    expect(heavy.load).toEqual({ entries: 1, chars: Number.POSITIVE_INFINITY });
  });

  it('a native list that throws reads as empty', async () => {
    const native = Object.assign(new EventTarget(), {
      getTools: async () => {
        throw new Error('renderer busy');
      },
      executeTool: async () => null,
    });
    expect((await listFrameTools({ win, doc: document, native })).report.tools).toEqual([]);
  });
});
