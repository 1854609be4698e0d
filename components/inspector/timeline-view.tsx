import type { CallRecord } from '../../lib/messaging/call-record';
import { redactCallRecord } from '../../lib/call-log/redact-call-record';
import type { InspectorStore } from './inspector-store';

const LONG_OUTPUT = 600;

/** Every call on this tab, by the agent, a desktop agent (the MCP bridge) or by hand, newest first: time, who, arguments, result, duration, error code. */
export function TimelineView({ store }: { store: InspectorStore }) {
  const entries = [...store.timeline.value].reverse();
  const secret = store.secretFields.value;
  return (
    <section class="timeline" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      {entries.length === 0 ? (
        <p class="muted">No tool has been called on this tab yet. Calls by the agent and by hand show here.</p>
      ) : (
        <ol class="timeline-list">
          {entries.map((entry) => (
            <TimelineEntry key={entry.id} entry={entry} secretFields={secret[entry.tool]} />
          ))}
        </ol>
      )}
    </section>
  );
}

function TimelineEntry({ entry, secretFields }: { entry: CallRecord; secretFields?: string[] }) {
  // The host already masked what the schema marks secret; what the person marked is masked here, in view and Copy alike.
  const shown = redactCallRecord(
    entry,
    (secretFields ?? []).map((name) => [name]),
  );
  const time = new Date(entry.at).toLocaleTimeString();
  const long = (shown.output?.length ?? 0) > LONG_OUTPUT;
  return (
    <li class="timeline-entry" data-state={entry.state}>
      <p class="timeline-head">
        <time dateTime={new Date(entry.at).toISOString()}>{time}</time>
        <span class="badge">
          {entry.by === 'agent' ? 'Agent' : entry.by === 'client' ? `Desktop agent: ${entry.client ?? 'unnamed'}` : 'By hand'}
        </span>
        <code class="tool-name">{entry.tool}</code>
        <span class="tool-state">{entry.state}</span>
        {entry.errorCode && <code class="error-code">{entry.errorCode}</code>}
        {entry.durationMs !== undefined && <span class="muted">{entry.durationMs} ms</span>}
      </p>
      <h4>Arguments</h4>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard (axe scrollable-region-focusable). */}
      <pre tabIndex={0} title={`Arguments of ${entry.tool}`}>
        {JSON.stringify(shown.input, null, 2)}
      </pre>
      {shown.output !== undefined &&
        (long ? (
          <details>
            <summary>Result ({shown.output.length} characters)</summary>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard. */}
            <pre tabIndex={0} title={`Result of ${entry.tool}`}>
              {shown.output}
            </pre>
          </details>
        ) : (
          <>
            <h4>Result</h4>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard. */}
            <pre tabIndex={0} title={`Result of ${entry.tool}`}>
              {shown.output}
            </pre>
          </>
        ))}
      <button type="button" class="link" onClick={() => void navigator.clipboard.writeText(JSON.stringify(shown, null, 2))}>
        Copy as JSON
      </button>
    </li>
  );
}
