// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { HOST_LEFT_UNANSWERED } from '../panel/create-exports-slice';
import { ExportMenu } from './export-menu';

describe('ExportMenu', () => {
  afterEach(cleanup);

  it('shows why an export failed (the host restarted before it answered), and clears it on the next try', async () => {
    let answer: () => Promise<{ text: string; fileName: string }> = () => Promise.reject(new Error(HOST_LEFT_UNANSWERED));
    render(<ExportMenu store={{ exportTranscript: () => answer() }} disabled={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Conversation as Markdown' }));
    expect((await screen.findByRole('alert')).textContent).toBe(`The export failed: ${HOST_LEFT_UNANSWERED}`);

    answer = () => new Promise(() => undefined); // Asked again: the message goes while the host works on it.
    fireEvent.click(screen.getByRole('button', { name: 'Conversation as JSON' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
