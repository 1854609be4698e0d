import { abortError } from './abort-error';
import type { DeviceChoice } from './choose-device';
import { createLoadProgress } from './create-load-progress';
import type { LocalModelSpec } from './model-catalog';
import { type ActiveDownload, activeDownloads } from './resumable-fetch';
import { type CausalLM, type LoadProgress, loadCausalLM, modelFileSize, type Tokenizer } from './transformers-runtime';
import { yieldBeforeEachForward } from './yield-before-each-forward';

interface LoadModelInputs {
  spec: LocalModelSpec;
  revision: string;
  /** Where and how the model runs (chooseDevice). transformers.js's env must already be set for it. */
  choice: DeviceChoice;
  /** The files the model needs on this device (listModelFiles). */
  files: string[];
  /** The provider's tokenizer, loaded once and shared with `fits`. */
  loadTokenizer: (progress_callback: (info: LoadProgress) => void) => Promise<Tokenizer>;
  /** Reconnections without progress before a download fails (resumableFetch). */
  retries: number;
  /** First wait before reconnecting; doubled each time. */
  retryDelayMs: number;
  onProgress: (progress: number) => void;
  /** Cancels the download; a model loaded meanwhile is freed. */
  signal?: AbortSignal;
  /** The tokenizer and the model are in memory (called before progress reaches 1). */
  onLoaded: (loaded: { tokenizer: Tokenizer; model: CausalLM }) => void;
}

/**
 * Loads a model's tokenizer and weights, downloading what the cache lacks: sizes first (from the cache when there,
 * else a Range probe), so progress is one bar over every file from 0 to 1, and the download resumable and counted
 * while it runs (resumable-fetch.ts). A stopped load rejects with the signal's reason and keeps nothing in memory.
 * The loaded model yields before each forward pass, so a generation stops within one token.
 */
export async function loadTransformersModel(inputs: LoadModelInputs): Promise<void> {
  const { spec, revision, choice, files, signal, onProgress } = inputs;
  const sizes = await Promise.all(files.map(async (file) => (await modelFileSize(spec.id, file, revision)) ?? 0));
  const progress = createLoadProgress(
    files.map((file, i) => [file, sizes[i]] as const),
    onProgress,
  );
  const download: ActiveDownload = {
    owns: (url) => url.includes(`/${spec.id}/`),
    signal,
    retries: inputs.retries,
    retryDelayMs: inputs.retryDelayMs,
    onBytes: progress.onBytes,
  };
  const progress_callback = progress.onFileProgress;
  activeDownloads.add(download);
  try {
    onProgress(0);
    const tok = await inputs.loadTokenizer(progress_callback);
    signal?.throwIfAborted();
    const m = await loadCausalLM(spec.id, {
      revision,
      dtype: choice.dtype,
      device: choice.device,
      progress_callback,
    });
    if (signal?.aborted) {
      await m.dispose();
      throw abortError(signal);
    }
    yieldBeforeEachForward(m);
    inputs.onLoaded({ tokenizer: tok, model: m });
    onProgress(1);
  } catch (error) {
    throw signal?.aborted ? abortError(signal) : error;
  } finally {
    activeDownloads.delete(download);
  }
}
