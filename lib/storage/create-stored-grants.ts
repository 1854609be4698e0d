import type { StorageArea } from '../messaging/storage-area';
import { type GrantCaller, readGrantCaller, sameCaller } from './grant-caller';
import { normaliseOrigin, parseOrigin } from './parse-origin';
import type { ToolGrant } from './settings';
import { SettingsValidationError } from './settings-validation-error';

/** "Always on this site", as the settings store keeps it (settings-store.ts). */
export interface StoredGrants {
  /** The tool runs on pages of this origin without asking, for this caller only. */
  grantTool(origin: string, tool: string, caller: GrantCaller): Promise<void>;
  revokeGrant(origin: string, tool: string, caller: GrantCaller): Promise<void>;
  isToolGranted(origin: string, tool: string, caller: GrantCaller): Promise<boolean>;
}

/**
 * Creates the grants over `local` under `key`; `serial` runs each read-modify-write after the store's others (two
 * quick grants must not lose one).
 */
export function createStoredGrants(local: StorageArea, key: string, serial: <T>(task: () => Promise<T>) => Promise<T>): StoredGrants {
  const readGrants = async (): Promise<ToolGrant[]> => sanitizeGrants((await local.get([key]))[key]);
  return {
    grantTool(origin, tool, caller) {
      return serial(async () => {
        const parsed = parseOrigin(origin);
        if (!parsed.ok) throw new SettingsValidationError({ origin: parsed.error });
        if (tool.trim() === '') throw new SettingsValidationError({ tool: 'A grant needs a tool name.' });
        // Only a caller that can be told apart from others may hold a grant (grant-caller.ts).
        const who = caller === undefined ? undefined : readGrantCaller(caller);
        if (!who) throw new SettingsValidationError({ caller: 'A grant needs a known caller.' });
        const grants = await readGrants();
        if (grants.some((g) => g.origin === parsed.value && g.tool === tool && sameCaller(g.caller, who))) return;
        // Written back whole: grants stored before callers existed are stored as the in-browser agent's from now on.
        grants.push({ origin: parsed.value, tool, caller: who, grantedAt: Date.now() });
        await local.set({ [key]: grants });
      });
    },
    revokeGrant(origin, tool, caller) {
      return serial(async () => {
        const target = normaliseOrigin(origin);
        const grants = await readGrants();
        await local.set({ [key]: grants.filter((g) => !(g.origin === target && g.tool === tool && sameCaller(g.caller, caller))) });
      });
    },
    async isToolGranted(origin, tool, caller) {
      const target = normaliseOrigin(origin);
      return (await readGrants()).some((g) => g.origin === target && g.tool === tool && sameCaller(g.caller, caller));
    },
  };
}

/** The stored grants; one stored before grants had a caller is the in-browser agent's (grant-caller.ts). */
export function sanitizeGrants(value: unknown): ToolGrant[] {
  if (!Array.isArray(value)) return [];
  const grants: ToolGrant[] = [];
  for (const g of value) {
    if (!g || typeof g !== 'object' || typeof g.origin !== 'string' || typeof g.tool !== 'string' || typeof g.grantedAt !== 'number')
      continue;
    const caller = readGrantCaller(g.caller);
    if (caller) grants.push({ origin: g.origin, tool: g.tool, caller, grantedAt: g.grantedAt });
  }
  return grants;
}
