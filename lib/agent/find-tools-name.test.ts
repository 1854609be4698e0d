import { describe, expect, it } from 'vitest';
import { FIND_TOOLS_NAME, isFindToolsName } from './find-tools-name';

describe('isFindToolsName', () => {
  it('is the search tool’s name in any case, with - for _', () => {
    for (const name of [FIND_TOOLS_NAME, 'Find_Tools', 'FIND-TOOLS', 'find-tools']) expect(isFindToolsName(name)).toBe(true);
  });

  it('is no other name', () => {
    for (const name of ['find_tools_2', 'findtools', 'shop_example__find_tools', ' find_tools', '', undefined, 7]) {
      expect(isFindToolsName(name)).toBe(false);
    }
  });
});
