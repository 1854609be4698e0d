import type { Notice } from './notice';

/** A polite live region with a notice in it; present (and empty) from the start so screen readers hear changes. */
export function NoticeText(props: { notice: Notice | undefined; id?: string; class?: string }) {
  const { notice } = props;
  return (
    <p
      id={props.id}
      class={`notice${notice ? ` notice--${notice.tone}` : ''}${props.class ? ` ${props.class}` : ''}`}
      role="status"
      aria-live="polite"
    >
      {notice?.text ?? ''}
    </p>
  );
}
