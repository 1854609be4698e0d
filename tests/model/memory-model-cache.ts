import type { ModelFileCache } from '../../lib/local/transformers-runtime';

/** An in-memory stand-in for the Cache API (Node has none), holding whole responses by URL. */
export interface MemoryModelCache extends ModelFileCache {
  /** Stored keys (URLs). */
  keys: () => string[];
}

/** A Cache-API-like store in memory: a response is stored only once its body was read completely. */
export function createMemoryModelCache(): MemoryModelCache {
  const store = new Map<string, { body: Uint8Array; headers: [string, string][]; status: number }>();
  return {
    keys: () => [...store.keys()],
    match: async (key) => {
      const hit = store.get(key);
      return hit ? new Response(hit.body.slice(), { status: hit.status, headers: hit.headers }) : undefined;
    },
    put: async (key, response) => {
      const body = new Uint8Array(await response.arrayBuffer());
      const headers = [...response.headers.entries()].filter(([k]) => k !== 'content-length');
      headers.push(['content-length', String(body.byteLength)]);
      store.set(key, { body, headers, status: response.status });
    },
    delete: async (key) => store.delete(key),
  };
}
