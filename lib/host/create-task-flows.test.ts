import { describe, expect, it } from 'vitest';
import { createTaskFlows } from './create-task-flows';

const A = 'https://a.example';
const B = 'https://b.example';
const C = 'https://c.example';

describe('createTaskFlows', () => {
  it('allows only the flow the person allowed, in its own direction', () => {
    const flows = createTaskFlows();
    expect(flows.allows(A, B)).toBe(false);
    flows.allow([{ from: A, to: B }]);
    expect(flows.allows(A, B)).toBe(true);
    expect(flows.allows(B, A)).toBe(false);
    expect(flows.allows(A, C)).toBe(false);
    expect(flows.allows(C, B)).toBe(false);
  });

  it('always lets an origin’s data go to its own tools', () => {
    expect(createTaskFlows().allows(A, A)).toBe(true);
  });

  it('forgets every flow when the conversation ends', () => {
    const flows = createTaskFlows();
    flows.allow([{ from: A, to: B }]);
    flows.clear();
    expect(flows.allows(A, B)).toBe(false);
  });
});
