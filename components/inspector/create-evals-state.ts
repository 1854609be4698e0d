import { computed, type ReadonlySignal, signal } from '@preact/signals';
import type { EvalCase } from '../../lib/evals/eval-types';
import { parseEvalFile } from '../../lib/evals/parse-eval-file';
import { type EvalCaseResult, runEvalCases } from '../../lib/evals/run-eval-cases';
import { redactEvalCases, redactEvalReport } from '../../lib/evals/redact-eval-report';
import { type EvalReport, toEvalReport } from '../../lib/evals/to-eval-report';
import { errorMessage } from '../../lib/shared/error-message';
import type { InspectorStore } from './inspector-store';
import { createEvalDriver, type EvalDriverOptions, type EvalTabsPort } from './create-eval-driver';

/** The Evals view's state: the imported file, the starting URL, the run's progress, and its report. */
export interface EvalsState {
  fileName: ReadonlySignal<string | undefined>;
  cases: ReadonlySignal<EvalCase[]>;
  /** Why the file cannot be run, one line per problem. */
  errors: ReadonlySignal<string[]>;
  url: ReturnType<typeof signal<string>>;
  running: ReadonlySignal<boolean>;
  results: ReadonlySignal<EvalCaseResult[]>;
  /**
   * The results as the view shows them: secret arguments masked and their values redacted from the differences and
   * answers, as in the report (scoring ran on the clear values).
   */
  shown: ReadonlySignal<EvalCaseResult[]>;
  /** The report as it may leave the panel: secret arguments masked, the API key redacted. */
  report: ReadonlySignal<EvalReport | undefined>;
  /** Shares of the file's cases: passed, and finished. */
  summary: ReadonlySignal<{ passed: number; done: number; total: number }>;
  load(text: string, fileName: string): boolean;
  /** Runs every case; resolves with the report (also when stopped). */
  run(options?: EvalDriverOptions): Promise<EvalReport | undefined>;
  stop(): void;
}

/** Creates the evals state over the panel's store: cases run with the person's current agent, on-device or cloud. */
export function createEvalsState(store: InspectorStore, tabs: EvalTabsPort): EvalsState {
  const fileName = signal<string | undefined>(undefined);
  const cases = signal<EvalCase[]>([]);
  const errors = signal<string[]>([]);
  const url = signal(store.tab.value?.page?.url ?? '');
  const running = signal(false);
  const results = signal<EvalCaseResult[]>([]);
  const report = signal<EvalReport | undefined>(undefined);
  let controller: AbortController | undefined;
  const shown = computed(() => redactEvalCases(results.value, { tools: store.tab.value?.tools ?? [], marked: store.secretFields.value }));
  const summary = computed(() => ({
    passed: results.value.filter((r) => r.outcome === 'pass').length,
    done: results.value.length,
    total: cases.value.length,
  }));
  return {
    fileName,
    cases,
    errors,
    url,
    running,
    results,
    shown,
    report,
    summary,
    load(text, name) {
      const parsed = parseEvalFile(text);
      fileName.value = name;
      results.value = [];
      report.value = undefined;
      if (!parsed.ok) {
        cases.value = [];
        errors.value = parsed.errors;
        return false;
      }
      errors.value = [];
      cases.value = parsed.cases;
      if (!url.value) url.value = store.tab.value?.page?.url ?? '';
      return true;
    },
    async run(driverOptions) {
      if (running.value || cases.value.length === 0) return undefined;
      const target = url.value.trim();
      if (!/^https?:\/\//i.test(target)) {
        errors.value = ['The starting URL must be an http(s) address.'];
        return undefined;
      }
      errors.value = [];
      controller = new AbortController();
      running.value = true;
      results.value = [];
      report.value = undefined;
      const startedAt = new Date();
      const adapter = store.adapter.value;
      const model = adapter?.models.find((m) => m.selected) ?? adapter?.models.find((m) => m.recommended);
      try {
        const done = await runEvalCases(cases.value, {
          url: target,
          driver: createEvalDriver(store, tabs, driverOptions),
          signal: controller.signal,
          onProgress: (progress) => {
            results.value = progress.results;
          },
        });
        results.value = done;
        const raw = toEvalReport(done, {
          total: cases.value.length,
          url: target,
          agent: { kind: adapter?.kind ?? 'unknown', label: adapter?.label ?? 'unknown', ...(model ? { model: model.label } : {}) },
          startedAt,
          finishedAt: new Date(),
          stopped: controller.signal.aborted,
        });
        // What leaves the panel (Export report, `npm run eval --report`) holds no secret argument and no API key: the
        // schema's and the person's secrets are masked here, the key (which only the host holds) by the host.
        try {
          report.value = await store.redact(
            redactEvalReport(raw, { tools: store.tab.value?.tools ?? [], marked: store.secretFields.value }),
          );
        } catch (error) {
          // The host restarted before it answered (create-exports-slice.ts): the results stay shown, the report waits.
          errors.value = [`The report could not be made: ${errorMessage(error)}`];
          return undefined;
        }
        return report.value;
      } finally {
        running.value = false;
        controller = undefined;
      }
    },
    stop() {
      controller?.abort();
    },
  };
}
