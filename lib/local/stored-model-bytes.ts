import { isModelCached, listModelFiles, type ModelFileOptions, modelFileSize } from './transformers-runtime';

/**
 * Bytes a model's files take in the cache, read from the cache alone (no network): undefined unless every file the
 * model needs on this device is there, or when the cache cannot be read.
 *
 * @param id The model's repository id.
 * @param revision The revision its files come from.
 * @param fileOptions Which files the model needs on this device.
 */
export async function storedModelBytes(
  id: string,
  revision: string,
  fileOptions: () => Promise<ModelFileOptions>,
): Promise<number | undefined> {
  const opts = await fileOptions();
  try {
    if (!(await isModelCached(id, opts))) return undefined;
    const files = await listModelFiles(id, await fileOptions());
    const sizes = await Promise.all(files.map(async (file) => (await modelFileSize(id, file, revision)) ?? 0));
    return sizes.reduce((a, b) => a + b, 0);
  } catch {
    return undefined;
  }
}
