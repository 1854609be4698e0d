import { examplesFromEvals } from '../../lib/audit/examples-from-evals';
import { type AuditPorts, type AuditState, createAuditState } from './create-audit-state';
import type { EvalTabsPort } from './create-eval-driver';
import { createEvalsState, type EvalsState } from './create-evals-state';
import type { InspectorStore } from './inspector-store';

/** One panel's evals and audit, each created on first use and kept for the panel's life. */
export interface DevelopState {
  /** The evals: a run goes on while the person reads the chat, and the headless runner drives the same one. */
  evals(): EvalsState;
  /** The audit; the requests of a loaded eval file (the Develop view's) feed its ranking checks. */
  audit(): AuditState;
}

/** What the evals and the audit read from the browser, given by the side panel's entry point. */
interface DevelopPorts {
  /** Loads a URL in the followed tab, for evals. */
  tabs: EvalTabsPort;
  /** The page's forms and the site's agent, for the audit. */
  audit: AuditPorts;
}

/** Creates the develop state of one panel over its store. */
export function createDevelopState(store: InspectorStore, ports: DevelopPorts): DevelopState {
  let evals: EvalsState | undefined;
  let audit: AuditState | undefined;
  const evalsState = () => {
    evals ??= createEvalsState(store, ports.tabs);
    return evals;
  };
  return {
    evals: evalsState,
    audit() {
      audit ??= createAuditState(store, ports.audit, () => examplesFromEvals(evalsState().cases.value));
      return audit;
    },
  };
}
