import type { LoadProgress } from './transformers-runtime';

/** A model load's progress, fed by the download's byte counts and transformers.js's file reports. */
interface LoadProgressTracker {
  /** Bytes of a file arrived (resumableFetch counts them; `url` ends with the file's path). */
  onBytes(url: string, bytes: number): void;
  /** transformers.js reports a file: 'done' means it is all there (read from the cache, say). */
  onFileProgress(info: LoadProgress): void;
}

/**
 * One progress bar over every file of a model, weighted by their sizes. It never goes back, and stays below 1:
 * 1 is for the model being in memory, which the caller reports.
 *
 * @param files Each file's path in the model's repository and its size in bytes (0 when unknown), in the order the
 *   model lists them (a URL counts for the first file whose path it ends with).
 * @param onProgress Called with each new, higher value.
 */
export function createLoadProgress(
  files: readonly (readonly [file: string, bytes: number])[],
  onProgress: (progress: number) => void,
): LoadProgressTracker {
  const sizes = new Map(files.map(([file, total]) => [file, { total, loaded: 0 }]));
  let reported = 0;
  const report = () => {
    let total = 0;
    let loaded = 0;
    for (const s of sizes.values()) {
      total += s.total;
      loaded += Math.min(s.loaded, s.total);
    }
    // Never backwards, and 1 only once the model is in memory.
    const value = Math.min(0.99, total > 0 ? loaded / total : 0);
    if (value > reported) {
      reported = value;
      onProgress(value);
    }
  };
  const fileOf = (url: string) => files.find(([f]) => url.endsWith(`/${f}`))?.[0];
  return {
    onBytes: (url, bytes) => {
      const file = fileOf(url);
      const entry = file ? sizes.get(file) : undefined;
      if (entry) {
        entry.loaded += bytes;
        report();
      }
    },
    onFileProgress: (info) => {
      const { status, file } = info;
      const entry = file ? sizes.get(file) : undefined;
      if (status === 'done' && entry) {
        entry.loaded = entry.total;
        report();
      }
    },
  };
}
