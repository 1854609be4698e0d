import type { ContentScriptRegistry } from '../background/create-stub-sync';

/** A content-script registry held in memory, with what chrome.scripting refuses (ids registered twice, unknown ids). */
interface MemoryScriptRegistry extends ContentScriptRegistry {
  /** The registered scripts, in the order they were registered. */
  readonly scripts: Record<string, unknown>[];
}

/**
 * chrome.scripting's dynamic content-script registry, in memory, for unit tests (the service worker's API cannot
 * run under Vitest). Registering an id that is registered, or unregistering one that is not, rejects as Chrome does.
 */
export function createMemoryScriptRegistry(): MemoryScriptRegistry {
  const scripts: Record<string, unknown>[] = [];
  const has = (id: string) => scripts.some((script) => script.id === id);
  return {
    scripts,
    async getRegisteredContentScripts({ ids }) {
      return scripts.filter((script) => ids.includes(script.id as string)).map((script) => ({ ...script, id: script.id as string }));
    },
    async registerContentScripts(added) {
      for (const script of added) if (has(script.id as string)) throw new Error(`Duplicate script ID '${script.id}'`);
      scripts.push(...added.map((script) => ({ ...script })));
    },
    async unregisterContentScripts({ ids }) {
      for (const id of ids) if (!has(id)) throw new Error(`Nonexistent script ID '${id}'`);
      for (const id of ids)
        scripts.splice(
          scripts.findIndex((script) => script.id === id),
          1,
        );
    },
  };
}
