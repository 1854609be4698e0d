import type { GenerateRequest } from '../agent/local-provider';
import type { DeviceChoice } from './choose-device';
import type { GenerationStats } from './generate-reply';
import type { LocalModelSpec } from './model-catalog';

/**
 * Messages between the agent host and the engine Worker (serveTransformersEngine ↔ connectTransformersEngine).
 * Everything here is structured-clonable: the AbortSignal stays on the host side and travels as an abort message.
 */

/** The engine settings the host decides (URLs and limits); the Worker adds its own facts, fetch and cache. */
export interface EngineConfig {
  wasmPaths?: { wasm: string; mjs?: string };
  remoteHost?: string;
  remotePathTemplate?: string;
  idleUnloadMs?: number;
  maxNewTokens?: number;
}

/** One operation on one model's provider. */
export type EngineCall =
  | { op: 'prepare'; model: LocalModelSpec }
  | { op: 'generate'; model: LocalModelSpec; req: Omit<GenerateRequest, 'signal'>; stream: boolean }
  | { op: 'fits'; model: LocalModelSpec; req: Omit<GenerateRequest, 'signal'> }
  | { op: 'is-cached'; model: LocalModelSpec }
  | { op: 'stored-bytes'; model: LocalModelSpec }
  | { op: 'delete'; model: LocalModelSpec }
  | { op: 'unload'; model: LocalModelSpec }
  | { op: 'device'; model: LocalModelSpec };

/** Host → Worker. */
export type EngineRequest =
  | { type: 'engine/configure'; config: EngineConfig }
  | { type: 'engine/call'; id: number; call: EngineCall }
  | { type: 'engine/abort'; id: number; reason: SerializedError };

/** What the host mirrors of a provider after each call. */
export interface EngineModelState {
  loaded: boolean;
  lastGeneration?: GenerationStats;
}

/** An error as it crosses the boundary (its name keeps AbortError recognisable). */
interface SerializedError {
  name: string;
  message: string;
}

/** Worker → host. */
export type EngineReply =
  | { type: 'engine/progress'; id: number; progress: number }
  | { type: 'engine/text'; id: number; delta: string }
  | { type: 'engine/done'; id: number; value: string | boolean | number | DeviceChoice | null; state: EngineModelState }
  | { type: 'engine/failed'; id: number; error: SerializedError; state: EngineModelState }
  | { type: 'engine/unloaded'; modelId: string };

/** The slice of a Worker, MessagePort or worker global the two ends talk through. */
export interface EnginePort {
  postMessage: (message: unknown) => void;
  addEventListener: (type: 'message' | 'error', listener: (event: { data?: unknown; message?: string }) => void) => void;
  /** MessagePorts deliver nothing until started. */
  start?: () => void;
}

/** An Error or anything thrown, as plain data. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error || error instanceof DOMException) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** Back to an Error the caller can match by name (DOMException for AbortError, like fetch and signals do). */
export function deserializeError(error: SerializedError): Error {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return new DOMException(error.message, error.name);
  const e = new Error(error.message);
  e.name = error.name;
  return e;
}
