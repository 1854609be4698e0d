import type { GenerateRequest } from '../agent/local-provider';
import type { MessageTarget } from '../messaging/worker-transport';
import type { DeviceChoice } from './choose-device';
import type { GenerationStats } from './generate-reply';
import type { LocalModelSpec } from './model-catalog';

/**
 * The engine's request line (lib/messaging/create-request-line.ts) between the agent host and the engine Worker
 * (connectTransformersEngine ↔ serveTransformersEngine). Everything here is structured-clonable: the AbortSignal
 * stays on the host side and crosses as the line's cancel.
 */

/** The engine settings the host decides (URLs and limits); the Worker adds its own facts, fetch and cache. */
export interface EngineConfig {
  wasmPaths?: { wasm: string; mjs?: string };
  remoteHost?: string;
  remotePathTemplate?: string;
  idleUnloadMs?: number;
  maxNewTokens?: number;
}

/** A request that names its model. */
interface OnModel {
  model: LocalModelSpec;
}

/** Host → Worker: one operation on one model's provider per ask, and the settings (a notice). */
export interface EngineAsks {
  'engine/configure': { request: { config: EngineConfig }; answer: undefined };
  /** Updates: the download's progress, 0 to 1. */
  'engine/prepare': { request: OnModel; answer: null; update: number };
  /** Updates: the streamed text (when `stream`). */
  'engine/generate': { request: OnModel & { req: Omit<GenerateRequest, 'signal'>; stream: boolean }; answer: string; update: string };
  'engine/fits': { request: OnModel & { req: Omit<GenerateRequest, 'signal'> }; answer: boolean };
  'engine/is-cached': { request: OnModel; answer: boolean };
  'engine/stored-bytes': { request: OnModel; answer: number | null };
  'engine/delete': { request: OnModel; answer: null };
  'engine/unload': { request: OnModel; answer: null };
  'engine/device': { request: OnModel; answer: DeviceChoice };
}

/** What the host mirrors of a provider after each call. */
export interface EngineModelState {
  loaded: boolean;
  lastGeneration?: GenerationStats;
}

/** Worker → host, notices only. */
export interface EngineNotices {
  /** The Worker unloaded this model (idle, or another model was prepared). */
  'engine/unloaded': { request: { modelId: string }; answer: undefined };
  /** A model's state after an operation on it: sent before the operation's answer, so the answer finds it. */
  'engine/state': { request: { modelId: string; state: EngineModelState }; answer: undefined };
}

/** The Worker, MessagePort or worker global the two ends talk through. */
export type EnginePort = MessageTarget;
