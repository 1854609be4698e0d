import { describe, expect, it } from 'vitest';
import { CALL, modelBytes, modelFile, signal, user, useScriptedModelHost } from '../../tests/model/scripted-model-fixture';

// The resumable fetch serves transformers.js's every request while a provider loads: tested through the provider,
// against the model host that cuts connections and sends slowly on request.

const models = useScriptedModelHost();
const { spec, provider } = models;

describe('resumableFetch, through a loading provider', () => {
  it('resumes a file where the connection dropped, without fetching its first part again', async () => {
    const model = spec();
    const p = provider(model, { downloadRetries: 1 });
    const half = Math.floor(modelBytes / 2);
    // Cut at half, then the resumed request cut again a half later: it made progress, so it is resumed again.
    models.host.failNext(`${model.id}/${modelFile}`, half, 2);
    const progress: number[] = [];
    await p.prepare((v) => progress.push(v));
    expect(p.loaded).toBe(true);
    expect(models.host.requests.filter((r) => r.path.endsWith(`${model.id}/${modelFile}`)).map((r) => r.range)).toContain(`bytes=${half}-`);
    expect(models.host.bytesSent(`${model.id}/${modelFile}`)).toBe(modelBytes);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(await p.generate({ messages: [user('find socks')], signal: signal() })).toBe(CALL);
  });

  it('retries a connection that drops before the host answers', async () => {
    const model = spec();
    const p = provider(model, { downloadRetries: 1 });
    models.host.failNext(`${model.id}/${modelFile}`, -1);
    await p.prepare(() => {});
    expect(p.loaded).toBe(true);
    expect(models.host.downloads(`${model.id}/${modelFile}`)).toBe(2);
  });

  it('after a download that failed for good, starts again without fetching finished files', async () => {
    const model = spec();
    const p = provider(model, { downloadRetries: 1 });
    // The host answers, then drops before a byte, twice: one reconnection without progress is allowed.
    models.host.failNext(`${model.id}/${modelFile}`, 0, 2);
    await expect(p.prepare(() => {})).rejects.toThrow();
    expect(p.loaded).toBe(false);
    expect(await p.isCached()).toBe(false);

    await p.prepare(() => {});
    expect(p.loaded).toBe(true);
    expect(models.host.downloads(`${model.id}/${modelFile}`)).toBe(3);
    expect(models.host.downloads(`${model.id}/tokenizer.json`)).toBe(1);
    expect(models.host.downloads(`${model.id}/config.json`)).toBe(1);
  });

  it('cancels a download, then starts again on request', async () => {
    const model = spec();
    const p = provider(model);
    models.host.slow(`${model.id}/${modelFile}`, { chunkBytes: 256, delayMs: 20 });
    const controller = new AbortController();
    const run = p.prepare((v) => {
      if (v > 0.5 && !controller.signal.aborted) controller.abort();
    }, controller.signal);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(p.loaded).toBe(false);
    models.host.slow(`${model.id}/${modelFile}`);
    await p.prepare(() => {});
    expect(p.loaded).toBe(true);
  });

  it('keeps counting and cancelling a download while another model of the same context is asked about', async () => {
    const model = spec();
    const other = provider(spec());
    const p = provider(model);
    // Slow enough that the other provider touches transformers.js's shared settings between two files.
    models.host.slow(`${model.id}/tokenizer.json`, { chunkBytes: 1024, delayMs: 20 });
    models.host.slow(`${model.id}/${modelFile}`, { chunkBytes: 256, delayMs: 10 });
    const controller = new AbortController();
    const progress: number[] = [];
    let asked = false;
    const run = p.prepare((v) => {
      progress.push(v);
      if (v > 0 && !asked) {
        asked = true;
        void other.isCached();
      }
      if (v > 0.75 && v < 0.99) controller.abort();
    }, controller.signal);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    models.host.slow(`${model.id}/tokenizer.json`);
    models.host.slow(`${model.id}/${modelFile}`);
    // The model file (fetched after the other provider's call) was still counted byte by byte, and cancelled.
    expect(progress.filter((v) => v > 0.6 && v < 0.99).length).toBeGreaterThan(3);
    expect(p.loaded).toBe(false);
  });
});
