/**
 * The audit of a page's WebMCP tools (docs/audit.md): what goes in (the tools as the panel knows them, the page's
 * forms, the results of calls run by hand or by evals) and what comes out (findings, each with a severity, the tool
 * and field it concerns, why it matters to an agent and how to fix it). Every string here that came from the page is
 * page text: cleaned (cleanPageText) before it is put into a finding, and rendered as text only.
 */
import type { DroppedTools } from '../messaging/tab-tool-snapshot';
import type { PageContext, WebAgent } from '../agent/types';
import type { PanelTool } from '../messaging/agent-messages';

/** How much a finding matters: an error breaks or endangers an agent's use of the tool, a warning makes it worse, info is worth knowing. */
export type AuditSeverity = 'error' | 'warning' | 'info';

/** The severities, most serious first. */
export const AUDIT_SEVERITIES: readonly AuditSeverity[] = ['error', 'warning', 'info'];

/** One thing the audit found. */
export interface AuditFinding {
  /** Which rule, as `area/name` ("input-schema/enum-empty"): stable, for CI and for docs/audit.md. */
  rule: string;
  severity: AuditSeverity;
  /** The page's own name of the tool it concerns (absent for a form that is no tool, or the page as a whole). */
  tool?: string;
  /** Where in the tool or form ("description", "inputSchema.properties.size.enum", "form #contact, field 2"). */
  field?: string;
  /** The origin of the frame it lives in. */
  origin?: string;
  /** The extension's id of that frame (0: the top frame). */
  frameId?: number;
  /** What is wrong, in one or two sentences. */
  message: string;
  /** Why it matters to an agent. */
  why: string;
  /** How to fix it. */
  fix: string;
}

/** A control of a form, as the page's DOM has it. */
export interface ScannedField {
  /** Its `name` ('' when it has none: the form sends nothing for it, and no tool parameter comes from it). */
  name: string;
  /** `input`'s type, or `select` / `textarea`. */
  type: string;
  /** Its label's text, or its placeholder, or '' (for saying which field is meant). */
  label: string;
  /** It has a `toolparamdescription` or a label: the tool's parameter gets a description. */
  described: boolean;
}

/** One `<form>` of a frame. */
export interface ScannedForm {
  /** How to find it: "#id", `name="…"`, its aria-label, or "form 3". */
  label: string;
  /** Its `toolname` attribute; absent when it has none. */
  toolname?: string;
  /** Whether it has a non-empty `tooldescription`. */
  hasDescription: boolean;
  /** It has `toolautosubmit`: an agent's call submits it without the person. */
  autosubmit: boolean;
  /** The controls an agent could fill (not buttons). */
  fields: ScannedField[];
}

/** The forms of one frame (scanForms' result, read back by readFormScan). */
export interface FrameForms {
  frameId: number;
  origin: string;
  forms: ScannedForm[];
}

/** A finished call, by the agent (an eval, a chat), a desktop agent or by hand, from the tab's timeline. */
export interface AuditResult {
  /** The model-facing tool name (PanelTool.name). */
  tool: string;
  by: 'agent' | 'person' | 'client';
  /** The output's text, as the timeline keeps it. */
  output: string;
  /** The output was longer than what the timeline keeps (4,000 characters). */
  truncated: boolean;
}

/** A request that should lead to a tool: from an eval case whose first expected call is that tool. */
export interface AuditExample {
  /** The page's tool name the case expects first. */
  tool: string;
  request: string;
  /** Where it comes from ("eval case “Find mugs”"). */
  source: string;
}

/** Everything one audit looks at. Only `tools` is required: each check skips what it has no input for. */
export interface AuditInput {
  /** The tab's tools as the panel knows them (all frames, imperative and declarative). */
  tools: readonly PanelTool[];
  /** Tools the agent does not get (frames not delegated, per-tab caps). */
  dropped?: readonly DroppedTools[];
  /** The page's forms, per frame; absent when they could not be read. */
  forms?: readonly FrameForms[];
  /** Finished calls of the tab. */
  results?: readonly AuditResult[];
  /** Requests from evals, for the ranking checks. */
  examples?: readonly AuditExample[];
}

/** An audit, as the panel shows it and exports it. */
export interface AuditReport {
  /** What this JSON is, for tools that read it. */
  format: 'webmcp-agent-audit-report';
  /** The page audited. */
  page: { url?: string; title?: string };
  /** When it ran (ISO 8601). */
  auditedAt: string;
  /** How many tools, forms and results were looked at. */
  looked: { tools: number; frames: number; forms?: number; results: number; examples: number };
  /** Counts per severity. */
  counts: Record<AuditSeverity, number>;
  /** Most serious first, then by tool. */
  findings: AuditFinding[];
}

/** What "What the model sees" needs beyond the tools. */
export interface PreviewContext {
  page?: PageContext;
  /** The site's agent (site profile): its instructions, tool filter and sub-agents. */
  agent?: WebAgent;
}
