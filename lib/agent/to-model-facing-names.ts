import { isFindToolsName } from './find-tools-name';

/** Provider-safe tool names: every provider accepts ^[a-zA-Z0-9_-]{1,64}$. */
export const MODEL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A page tool by which frame, which origin and which WebMCP name: what its model-facing name is kept for. Not the
 * confirmation policy's ToolIdentity (lib/host/create-confirmation-flow.ts), which is an origin and a name.
 */
interface FrameToolRef {
  frameId: number;
  origin: string;
  name: string;
}

/**
 * Gives each tool a unique, provider-safe model-facing name, in order. Characters outside the safe set become
 * `_` (so `cart.add` becomes `cart_add`), names are cut to fit, and a collision (with an earlier tool or with a
 * `reserved` name, or with the extension's search tool `find_tools` in any case or spelling) gets `_2`, `_3`, …, so a
 * page tool can never be called by the search tool's name. The returned array is parallel to the input: element i is the name of
 * tools[i], which is how a name maps back to its (frame, origin, name) exactly.
 */
export function toModelFacingNames(tools: readonly FrameToolRef[], reserved: Iterable<string> = []): string[] {
  const taken = new Set<string>([...reserved].map((name) => name.toLowerCase()));
  return tools.map((tool) => {
    const base = sanitize(tool.name);
    let candidate = base;
    for (let n = 2; taken.has(candidate.toLowerCase()) || isFindToolsName(candidate); n++) {
      const suffix = `_${n}`;
      candidate = base.slice(0, 64 - suffix.length) + suffix;
    }
    // Case-insensitive uniqueness: some providers and people treat Cart and cart as one tool.
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

function sanitize(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned.length > 0 ? cleaned : 'tool';
}

/** The key a tool's model-facing name is remembered under: its frame, origin and WebMCP name. */
export function toolIdentityKey(tool: FrameToolRef): string {
  return `${tool.frameId}|${tool.origin}|${tool.name}`;
}

/**
 * Names the tools in `present` that have no name yet in `given` (model-facing names by {@link toolIdentityKey}) and
 * returns the new map. The top frame (frameId 0) keeps its plain names whatever the timing: when a top tool's plain
 * name is held by another frame's tool (an ad frame that registered `place_order` first), that tool is renamed away
 * (`place_order_2`) and the plain name goes to the top's tool. Apart from that, a name once given stays with its
 * tool and is never handed to another one, so a name the model saw can only reach the tool it meant, or the top's.
 */
export function assignToolNames(given: Readonly<Record<string, string>>, present: readonly FrameToolRef[]): Record<string, string> {
  // A name given before the search tool existed goes: its tool is named afresh below.
  const names = Object.fromEntries(Object.entries(given).filter(([, name]) => !isFindToolsName(name)));
  const holderOf = new Map(Object.entries(names).map(([key, name]) => [name.toLowerCase(), key]));
  const unnamedTop = present.filter((tool) => tool.frameId === 0 && names[toolIdentityKey(tool)] === undefined);
  for (const tool of unnamedTop) {
    const plain = sanitize(tool.name);
    // The search tool's name is never a page tool's, the top frame's either.
    if (isFindToolsName(plain)) continue;
    const holder = holderOf.get(plain.toLowerCase());
    if (holder === undefined || holder.startsWith('0|')) continue;
    // A frame's tool holds the top's plain name: it gives it up and is named afresh below.
    delete names[holder];
    names[toolIdentityKey(tool)] = plain;
    holderOf.set(plain.toLowerCase(), toolIdentityKey(tool));
  }
  const ordered = [...present.filter((t) => t.frameId === 0), ...present.filter((t) => t.frameId !== 0)];
  const unnamed = ordered.filter((tool) => names[toolIdentityKey(tool)] === undefined);
  // Every name ever given in this snapshot's life stays reserved (a renamed tool's old name is the top's now).
  const fresh = toModelFacingNames(unnamed, [...Object.values(names), ...Object.values(given)]);
  unnamed.forEach((tool, i) => {
    names[toolIdentityKey(tool)] = fresh[i];
  });
  return names;
}
