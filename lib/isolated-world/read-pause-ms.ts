/**
 * How long a frame waits after reading its tools before it reads them again for a report (issue 45): what the read
 * took, times the frames whose tools it carried, times ten. Chromium's getTools() answers with the tools of every
 * same-origin frame of the tree, and each of those frames reads them too: so the reads of all the frames together
 * take about a tenth of the page's time at most, however many frames and tools a page has. An ordinary page's read
 * takes a millisecond or two, well under the pacer's interval between reports, so it changes nothing there.
 */

/** The share of a page's time its frames' reads may take together is one in this. */
const READ_TIME_FACTOR = 10;

/** The pause after a read of `readMs` that carried the tools of `framesRead` frames. */
export function readPauseMs(readMs: number, framesRead: number): number {
  if (!Number.isFinite(readMs) || readMs <= 0) return 0;
  return readMs * Math.max(1, framesRead) * READ_TIME_FACTOR;
}
