/** Provider-safe tool names: every provider accepts ^[a-zA-Z0-9_-]{1,64}$. */
export const MODEL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** A stable identity of a page tool: which frame, which origin, which WebMCP name. */
export interface ToolIdentity {
  frameId: number;
  origin: string;
  name: string;
}

/**
 * Gives each tool a unique, provider-safe model-facing name, in order. Characters outside the safe set become
 * `_` (so `cart.add` becomes `cart_add`), names are cut to fit, and a collision (with an earlier tool or with a
 * `reserved` name) gets `_2`, `_3`, …. The returned array is parallel to the input: element i is the name of
 * tools[i], which is how a name maps back to its (frame, origin, name) exactly.
 */
export function toModelFacingNames(tools: readonly ToolIdentity[], reserved: Iterable<string> = []): string[] {
  const taken = new Set<string>([...reserved].map((name) => name.toLowerCase()));
  return tools.map((tool) => {
    const base = sanitize(tool.name);
    let candidate = base;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
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
export function toolIdentityKey(tool: ToolIdentity): string {
  return `${tool.frameId}|${tool.origin}|${tool.name}`;
}
