import { describe, expect, it } from 'vitest';
import { createExposureLink } from './exposure-link';
import type { PageAsk } from '../webmcp/page-channel';

const entry = { frameId: 2, path: [0], origin: 'https://widget.test', name: 'book', title: '', description: 'Books' };

describe('createExposureLink', () => {
  it('asks the isolated side for what the polyfill needs, and reads its answers as data', async () => {
    const asked: PageAsk[] = [];
    const link = createExposureLink(async (question) => {
      asked.push(question);
      if (question.op === 'exposed-tools') return [entry];
      if (question.op === 'run-exposed') return { ok: true, value: 'booked' };
      return true;
    });
    link.publish([{ name: 'pay', title: '', description: 'Pays', exposedTo: ['https://shop.test'] }]);
    expect(await link.list(['https://widget.test'])).toEqual([entry]);
    expect(await link.run(entry, '{"n":1}', undefined)).toBe('booked');
    expect(asked.map((q) => q.op)).toEqual(['exposed', 'exposed-tools', 'run-exposed']);
    expect(asked[2]).toEqual({ op: 'run-exposed', callId: '1', frameId: 2, origin: 'https://widget.test', name: 'book', input: '{"n":1}' });
  });

  it('rejects with the owner’s error name and message, lists nothing for an answer that is no list', async () => {
    const link = createExposureLink(async (question) =>
      question.op === 'run-exposed' ? { ok: false, name: 'UnknownError', message: 'gone' } : 'not a list',
    );
    expect(await link.list(['https://widget.test'])).toEqual([]);
    await expect(link.run(entry, '{}', undefined)).rejects.toMatchObject({ name: 'UnknownError', message: 'gone' });
  });

  it('tells the isolated side when the caller aborts a running call', async () => {
    const asked: PageAsk[] = [];
    let answer: (value: unknown) => void = () => {};
    const link = createExposureLink((question) => {
      asked.push(question);
      return question.op === 'run-exposed' ? new Promise((resolve) => (answer = resolve)) : Promise.resolve(true);
    });
    const controller = new AbortController();
    const running = link.run(entry, '{}', controller.signal);
    controller.abort();
    answer({ ok: false, name: 'AbortError', message: 'stopped' });
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(asked.map((q) => q.op)).toEqual(['run-exposed', 'cancel-exposed']);
  });
});
