import type { ComponentChildren } from 'preact';

/** The ids a control points to with aria-describedby: its hint and its error, when present. */
export function describedBy(id: string, hint?: unknown, error?: string): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/**
 * A labelled control with its hint and error. The control itself is the child: give it id={id},
 * aria-describedby={describedBy(id, hint, error)} and aria-invalid={!!error}.
 */
export function Field(props: { id: string; label: string; hint?: ComponentChildren; error?: string; children: ComponentChildren }) {
  const { id, label, hint, error, children } = props;
  return (
    <div class={`field${error ? ' field--invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
