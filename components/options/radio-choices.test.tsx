// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RadioChoices } from './radio-choices';

afterEach(cleanup);

describe('RadioChoices', () => {
  it('shows each choice with its hint read along, the value checked, and reports a new choice', () => {
    const onChange = vi.fn();
    render(
      <RadioChoices
        name="mode"
        legend={<legend>Agent</legend>}
        choices={[
          { id: 'local', label: 'On-device', hint: 'Runs here.' },
          { id: 'cloud', label: 'Cloud', hint: 'Your key.' },
        ]}
        value="local"
        onChange={onChange}
      >
        <p>After the choices.</p>
      </RadioChoices>,
    );
    const local = screen.getByRole('radio', { name: 'On-device' }) as HTMLInputElement;
    const cloud = screen.getByRole('radio', { name: 'Cloud' }) as HTMLInputElement;
    expect(local.checked).toBe(true);
    expect(cloud.checked).toBe(false);
    expect(document.getElementById(cloud.getAttribute('aria-describedby')!)?.textContent).toBe('Your key.');
    fireEvent.click(cloud);
    expect(onChange).toHaveBeenCalledWith('cloud');
    expect(screen.getByText('After the choices.')).toBeTruthy();
  });
});
