import { describe, expect, it } from 'vitest';
import { modelCatalog } from './model-catalog';
import { NO_WEBGPU_NOTE, needsDownloadStatus } from './needs-download-status';

const spec = modelCatalog[0];

describe('needsDownloadStatus', () => {
  it('gives the size of the weights this device fetches, with no caveat on WebGPU', () => {
    expect(needsDownloadStatus(spec, { device: 'webgpu', dtype: 'q4f16', numThreads: 1 })).toEqual({
      state: 'needs-download',
      bytes: spec.bytes.q4f16,
    });
  });

  it('says the CPU is slower where the model would run there (wasm or Node’s cpu)', () => {
    for (const device of ['wasm', 'cpu'] as const) {
      expect(needsDownloadStatus(spec, { device, dtype: 'q4', numThreads: 1 })).toEqual({
        state: 'needs-download',
        bytes: spec.bytes.q4,
        note: NO_WEBGPU_NOTE,
      });
    }
  });

  it('adds a note after the caveat, and gives no size while the device is unknown', () => {
    expect(needsDownloadStatus(spec, { device: 'wasm', dtype: 'q4', numThreads: 1 }, 'It stopped.')).toMatchObject({
      note: `${NO_WEBGPU_NOTE} It stopped.`,
    });
    expect(needsDownloadStatus(spec, undefined, 'It stopped.')).toEqual({ state: 'needs-download', bytes: undefined, note: 'It stopped.' });
    expect(needsDownloadStatus(spec, undefined)).toEqual({ state: 'needs-download', bytes: undefined });
  });
});
