import type { InspectorStore } from './inspector-store';
import { downloadText } from '../shared/download-text';
import type { EvalsState } from './create-evals-state';

/**
 * Evals in the real agent: import a webmcp-evals file, run every case on this tab with the current agent, watch
 * the table fill, stop, and export the report.
 */
export function EvalsView({ evals, store }: { evals: EvalsState; store: InspectorStore }) {
  const { passed, done, total } = evals.summary.value;
  const running = evals.running.value;
  const waiting = running ? (store.tab.value?.confirmations ?? []).filter((c) => c.requester === undefined) : [];
  return (
    <section class="evals" aria-labelledby="evals-title">
      <h2 id="evals-title">Evals</h2>
      <p class="muted">
        A file in the webmcp-evals format (a list of cases with <code>messages</code> and <code>expectedCall</code>). Each case reloads the
        page, starts a fresh conversation and is scored on the calls the agent made.
      </p>
      <div class="evals-controls">
        <label for="evals-file">Eval file</label>
        <input
          id="evals-file"
          type="file"
          accept=".json,application/json"
          disabled={running}
          onChange={async (e) => {
            const file = e.currentTarget.files?.[0];
            if (file) evals.load(await file.text(), file.name);
          }}
        />
        <label for="evals-url">Starting URL</label>
        <input
          id="evals-url"
          type="url"
          value={evals.url.value}
          disabled={running}
          onInput={(e) => (evals.url.value = e.currentTarget.value)}
        />
        <div class="evals-actions">
          {running ? (
            <button type="button" class="stop" onClick={evals.stop}>
              Stop
            </button>
          ) : (
            <button type="button" class="primary" disabled={total === 0} onClick={() => void evals.run()}>
              Run {total > 0 ? `${total} case${total === 1 ? '' : 's'}` : 'cases'}
            </button>
          )}
          {evals.report.value && !running && (
            <button
              type="button"
              onClick={() =>
                downloadText(`${JSON.stringify(evals.report.value, null, 2)}\n`, 'webmcp-agent-eval-report.json', 'application/json')
              }
            >
              Export report
            </button>
          )}
        </div>
      </div>
      {waiting.map((confirmation) => (
        <fieldset class="confirm" key={confirmation.id}>
          <legend>The case waits for you: {confirmation.prompt}</legend>
          <div class="confirm-actions">
            <button type="button" class="primary" onClick={() => store.confirm(confirmation.id, 'allow-once')}>
              Allow once
            </button>
            <button type="button" class="danger" onClick={() => store.confirm(confirmation.id, 'deny')}>
              Deny
            </button>
          </div>
        </fieldset>
      ))}
      {evals.errors.value.length > 0 && (
        <div class="field-error" role="alert">
          <p>{evals.fileName.value ? `${evals.fileName.value} cannot be run:` : 'Cannot run:'}</p>
          <ul>
            {evals.errors.value.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      {total > 0 && (
        <>
          <p class="evals-progress" role="status" aria-live="polite">
            {running
              ? `Running: ${done} of ${total} done, ${passed} passed.`
              : done > 0
                ? `${passed} of ${total} passed.`
                : `${total} cases loaded.`}
          </p>
          {total > 0 && <progress max={total} value={done} aria-label="Eval progress" />}
          <table class="evals-table" aria-label="Eval results">
            <thead>
              <tr>
                <th scope="col">Case</th>
                <th scope="col">Result</th>
                <th scope="col">Calls</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {evals.cases.value.map((evalCase, index) => {
                // Masked as the report is: the differences quote the arguments, secret ones included.
                const result = evals.shown.value.find((r) => r.index === index);
                const name = evalCase.name ?? `Case ${index + 1}`;
                return (
                  <tr key={`${index}-${name}`} data-outcome={result?.outcome ?? 'pending'}>
                    <th scope="row">{name}</th>
                    <td>{result ? result.outcome.toUpperCase() : running && index === done ? 'running…' : '—'}</td>
                    <td>{result?.score ? `${result.score.passed}/${result.score.required}` : ''}</td>
                    <td>
                      {result?.error && <p>{result.error}</p>}
                      {result?.score?.rows.some((r) => r.outcome === 'fail') && (
                        <ul class="differences">
                          {result.score.rows
                            .filter((r) => r.outcome === 'fail')
                            .map((r, i) => (
                              <li key={String(i)}>
                                {r.expected ? <code>{r.expected.functionName}</code> : <code>{r.actual?.functionName}</code>}:{' '}
                                {r.differences.join('; ')}
                              </li>
                            ))}
                        </ul>
                      )}
                      {result?.finalAnswer && (
                        <details>
                          <summary>Final answer</summary>
                          <p>{result.finalAnswer}</p>
                        </details>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
