import { failedToExecute } from './failed-to-execute';

/** What executeTool takes of a RegisteredTool dictionary to find the tool again. */
export interface RegisteredToolRef {
  name: string;
  origin: string;
  win: Window;
}

/**
 * executeTool's tool dictionary (a RegisteredTool, as getTools() lists it) as native reads it: required members in
 * code-point order, a real Window; or throws the TypeError native throws.
 */
export function readRegisteredTool(tool: unknown): RegisteredToolRef {
  if (typeof tool !== 'object' || tool === null) {
    throw new TypeError(failedToExecute('executeTool', "The provided value is not of type 'RegisteredTool'."));
  }
  const t = tool as Record<string, unknown>;
  for (const member of ['description', 'name', 'origin', 'window']) {
    if (t[member] === undefined) {
      throw new TypeError(
        failedToExecute('executeTool', `Failed to read the '${member}' property from 'RegisteredTool': Required member is undefined.`),
      );
    }
  }
  const win = t.window as { window?: unknown } | null;
  if (typeof win !== 'object' || win === null || !isWindow(win)) {
    throw new TypeError(
      failedToExecute('executeTool', "Failed to read the 'window' property from 'RegisteredTool': Failed to convert value to 'Window'."),
    );
  }
  return { name: String(t.name), origin: String(t.origin), win: win as unknown as Window };
}

/**
 * Whether a value is a Window as WebIDL converts it: its `window` is itself, or it is a WindowProxy whose frame was
 * removed (a cross-origin one then answers only `closed`, and has no prototype to show).
 */
function isWindow(value: { window?: unknown }): boolean {
  try {
    if (value.window === value) return true;
    const proxy = value as { closed?: unknown; postMessage?: unknown };
    return proxy.closed === true && Object.getPrototypeOf(value) === null && typeof proxy.postMessage === 'function';
  } catch {
    return false;
  }
}
