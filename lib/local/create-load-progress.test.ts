import { describe, expect, it } from 'vitest';
import { createLoadProgress } from './create-load-progress';

const BASE = 'http://127.0.0.1:9/test/model/resolve/main';

describe('createLoadProgress', () => {
  it('is one bar over every file, weighted by size', () => {
    const seen: number[] = [];
    const progress = createLoadProgress(
      [
        ['tokenizer.json', 100],
        ['onnx/model_q4.onnx', 300],
      ],
      (v) => seen.push(v),
    );
    progress.onBytes(`${BASE}/tokenizer.json`, 100);
    progress.onBytes(`${BASE}/onnx/model_q4.onnx`, 100);
    expect(seen).toEqual([0.25, 0.5]);
  });

  it('reports only a higher value, never reaching 1, and counts no more of a file than its size', () => {
    const seen: number[] = [];
    const progress = createLoadProgress([['onnx/model_q4.onnx', 100]], (v) => seen.push(v));
    progress.onBytes(`${BASE}/onnx/model_q4.onnx`, 50);
    // Nothing new (a reconnection that has not sent a byte yet): no report.
    progress.onBytes(`${BASE}/onnx/model_q4.onnx`, 0);
    // More bytes than the file holds (a host that sent it twice) stop short of 1.
    progress.onBytes(`${BASE}/onnx/model_q4.onnx`, 500);
    progress.onFileProgress({ status: 'done', file: 'onnx/model_q4.onnx' });
    expect(seen).toEqual([0.5, 0.99]);
  });

  it('fills a file transformers.js reports done (read from the cache), and ignores other reports and files', () => {
    const seen: number[] = [];
    const progress = createLoadProgress(
      [
        ['config.json', 50],
        ['onnx/model_q4.onnx', 50],
      ],
      (v) => seen.push(v),
    );
    progress.onFileProgress({ status: 'progress', file: 'config.json' });
    progress.onFileProgress({ status: 'done', file: 'unknown.bin' });
    progress.onBytes(`${BASE}/other.bin`, 50);
    expect(seen).toEqual([]);
    progress.onFileProgress({ status: 'done', file: 'config.json' });
    expect(seen).toEqual([0.5]);
  });

  it('counts a URL for the first file whose path it ends with, and reports nothing while every size is unknown', () => {
    const seen: number[] = [];
    const progress = createLoadProgress(
      [
        ['onnx/model.onnx', 10],
        ['model.onnx', 10],
      ],
      (v) => seen.push(v),
    );
    progress.onBytes(`${BASE}/onnx/model.onnx`, 10);
    expect(seen).toEqual([0.5]);
    const unknown: number[] = [];
    createLoadProgress([['model.onnx', 0]], (v) => unknown.push(v)).onBytes(`${BASE}/model.onnx`, 10);
    expect(unknown).toEqual([]);
  });
});
