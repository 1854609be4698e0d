import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import type { FrameForms } from './audit-types';
import { checkConsequentialHint } from './check-consequential-hint';

const checkOut = (patch = {}) =>
  panelTool({ name: 'check_out', description: 'Place the order for everything in the cart.', annotations: {}, ...patch });

describe('checkConsequentialHint', () => {
  it('finds nothing when such a tool is marked, or when a tool only reads or fills a cart', () => {
    expect(checkConsequentialHint({ tools: [checkOut({ annotations: { consequentialHint: true } })] })).toEqual([]);
    expect(
      checkConsequentialHint({ tools: [panelTool(), panelTool({ name: 'add_to_cart', description: 'Add it to the cart.' })] }),
    ).toEqual([]);
  });

  it('flags a tool that buys without consequentialHint, saying what gave it away', () => {
    expect(checkConsequentialHint({ tools: [checkOut()] })).toEqual([
      expect.objectContaining({
        rule: 'annotation/consequential-missing',
        severity: 'error',
        tool: 'check_out',
        field: 'annotations.consequentialHint',
        message: 'It looks like it buys, pays, sends, deletes or books (the name check_out), but it is not marked consequentialHint.',
      }),
    ]);
  });

  it('flags a declarative form only when toolautosubmit lets an agent submit it', () => {
    const form = panelTool({ name: 'send_message', description: 'Sends a message.', annotations: {}, declarative: true, frameId: 0 });
    const forms = (autosubmit: boolean): FrameForms[] => [
      {
        frameId: 0,
        origin: 'https://shop.example',
        forms: [{ label: '#contact', toolname: 'send_message', hasDescription: true, autosubmit, fields: [] }],
      },
    ];
    expect(checkConsequentialHint({ tools: [form] })).toEqual([]);
    expect(checkConsequentialHint({ tools: [form], forms: forms(false) })).toEqual([]);
    const [finding] = checkConsequentialHint({ tools: [form], forms: forms(true) });
    expect(finding).toMatchObject({ rule: 'annotation/consequential-missing', field: 'toolautosubmit' });
    expect(finding.fix).toContain('Remove toolautosubmit');
  });
});
