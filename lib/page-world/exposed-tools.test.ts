import { describe, expect, it } from 'vitest';
import type { ExposedToolEntry } from '../messaging/router-messages';
import { exposedOrigins, exposedToolsOf, runOtherOriginTool, withExposedTools } from './exposed-tools';
import type { ExposureLink } from './exposure-link';
import type { PolyfillToolInfo } from './polyfill-tool-info';
import { fakeFrameWindow } from '../testing/fake-frame-window';

const OWN = 'https://shop.example';
const other = fakeFrameWindow('cross');
const sameOrigin = fakeFrameWindow(OWN);
const self = fakeFrameWindow(OWN);
const top = fakeFrameWindow(OWN, [self, other, sameOrigin]);
for (const win of [top, self, other, sameOrigin]) (win as unknown as Record<string, unknown>).top = top;

const entry = (name: string, path: number[], more: Partial<ExposedToolEntry> = {}): ExposedToolEntry => ({
  frameId: 1,
  path,
  origin: 'https://pay.example',
  name,
  title: '',
  description: `${name} exposed`,
  ...more,
});

describe('exposedOrigins', () => {
  it('keeps each serialised origin once, never an opaque one, and nothing when none is left', () => {
    expect(exposedOrigins(['https://a.example/path', 'HTTPS://A.EXAMPLE', 'https://b.example:8443'], URL)).toEqual({
      exposedTo: ['https://a.example', 'https://b.example:8443'],
    });
    expect(exposedOrigins(['data:,x'], URL)).toEqual({});
    expect(exposedOrigins(undefined, URL)).toEqual({});
  });
});

describe('exposedToolsOf', () => {
  const execute = () => 1;
  const tools = [
    { name: 'plain', title: '', description: 'd', execute },
    {
      name: 'shared',
      title: 'T',
      description: 'd',
      schemaJson: '{}',
      annotations: { readOnlyHint: true },
      execute,
      exposedTo: ['https://a.example'],
    },
  ];

  it('lists the tools exposed to any origin, as plain data, and none while the document is hidden', () => {
    expect(exposedToolsOf(tools, false)).toEqual([
      {
        name: 'shared',
        title: 'T',
        description: 'd',
        inputSchemaJson: '{}',
        annotations: { readOnlyHint: true },
        exposedTo: ['https://a.example'],
      },
    ]);
    expect(exposedToolsOf(tools, true)).toEqual([]);
  });
});

describe('withExposedTools', () => {
  const local: PolyfillToolInfo[] = [{ name: 'b', title: '', description: 'own', origin: OWN, window: self }];

  it("adds other origins' tools, each with its frame's window, sorted by name then breadth first", () => {
    const tools = withExposedTools(self, OWN, local, [entry('b', [1], { inputSchemaJson: '{"type":"object"}' }), entry('a', [1])]);
    expect(tools.map((tool) => [tool.name, tool.window === other ? 'other' : 'self'])).toEqual([
      ['a', 'other'],
      ['b', 'self'],
      ['b', 'other'],
    ]);
    expect(tools[2]).toMatchObject({ inputSchema: { type: 'object' }, origin: 'https://pay.example' });
  });

  it('never lists an entry whose window this document can read, nor one that is gone, nor a bad schema', () => {
    expect(withExposedTools(self, OWN, local, [entry('x', [0]), entry('y', [2]), entry('z', [7])])).toBe(local);
    expect(withExposedTools(self, OWN, [], [entry('x', [1], { inputSchemaJson: '{' })])[0]).not.toHaveProperty('inputSchema');
  });
});

describe('runOtherOriginTool', () => {
  const ref = { name: 'pay', origin: 'https://pay.example', win: other };
  const linkOf = (entries: ExposedToolEntry[], run: ExposureLink['run'] = async () => 'ran'): ExposureLink => ({
    publish: () => {},
    list: async () => entries,
    run,
  });

  it("runs the tool the extension lists now at that frame, with the input as JSON, and remakes the owner's error", async () => {
    const inputs: string[] = [];
    const link = linkOf([entry('pay', [1])], async (_entry, json) => {
      inputs.push(json);
      return 'paid';
    });
    await expect(runOtherOriginTool(link, self, ref, { sum: 3 }, undefined)).resolves.toBe('paid');
    expect(inputs).toEqual(['{"sum":3}']);
    const failing = linkOf([entry('pay', [1])], async () => {
      throw Object.assign(new Error('declined'), { name: 'NotAllowedError' });
    });
    await expect(runOtherOriginTool(failing, self, ref, {}, undefined)).rejects.toMatchObject({
      name: 'NotAllowedError',
      message: 'declined',
    });
  });

  it('finds no tool without a link, nor one the extension does not list at that frame', async () => {
    expect(() => runOtherOriginTool(undefined, self, ref, {}, undefined)).toThrow(expect.objectContaining({ name: 'UnknownError' }));
    await expect(runOtherOriginTool(linkOf([entry('pay', [2])]), self, ref, {}, undefined)).rejects.toMatchObject({ name: 'UnknownError' });
  });

  it("rejects at once with the caller's reason when aborted", async () => {
    const controller = new AbortController();
    const call = runOtherOriginTool(
      linkOf([entry('pay', [1])], () => new Promise(() => {})),
      self,
      ref,
      {},
      controller.signal,
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort('stop');
    await expect(call).rejects.toBe('stop');
  });
});
