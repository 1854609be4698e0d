/**
 * How long a frame waits after reading its tools before it reads them again for a report (issue 45): what the read
 * took, times the frames whose tools it carried, times ten. Chromium's getTools() answers with the tools of every
 * same-origin frame of the tree, and each of those frames reads them too: so the reads of all the frames together
 * take about a tenth of the page's time at most, however many frames and tools a page has. An ordinary page's read
 * takes a millisecond or two, well under the pacer's interval between reports, so it changes nothing there.
 *
 * A read's time is the machine's as much as the page's: on a busy or slow device (the page's CPU slowed 20×) an
 * ordinary page's reads of one to three tools took 66–467 ms, and with two frames that paused its next report
 * 1.3–9.3 s, so a tool it registered meanwhile was listed that much later. So the time charged is at most what
 * a read carrying that much should take ({@link expectedReadMs}); a read that carried megabytes or thousands of
 * tools, the pages the pause is for, is charged its whole time as before.
 *
 * The pause is at most 10 s per frame whose tools the read carried, and 60 s in all (see the constants below).
 */

/** What one read carried: the tool entries of every frame its answer held, and their text. */
export interface ReadLoad {
  entries: number;
  /** Characters of their descriptions and schemas; Infinity when one could not be measured cheaply. */
  chars: number;
}

/**
 * The longest pause per frame whose tools a read carried. Each of those frames reads them all, so with pauses of
 * this times their number the tab's frames together read about once in this, however many they are: what one frame
 * alone was held to before (the router's 10 s, create-report-pacer.ts). Held to 10 s for every read, a flood's
 * sixteen frames each read its 3,200 tools every 10 s, and on Chromium 156 each of those getTools() answers took the
 * browser's main thread about 160 ms (a trace: 29 in 15 s, 4.8 s of it), the thread every extension message waits for.
 */
const MAX_PAUSE_MS_PER_FRAME_READ = 10_000;
/** And at most this, however many frames: a frame whose tools change is listed at least once a minute. */
export const MAX_READ_PAUSE_MS = 60_000;
/** The share of a page's time its frames' reads may take together is one in this. */
const READ_TIME_FACTOR = 10;
/** A read's fixed cost, generously: the first read of a document binds its WebMCP host in the browser. */
const READ_BASE_MS = 5;
/** Per entry carried: far above native's cost per tool on an idle device. */
const READ_MS_PER_ENTRY = 2;
/** Characters carried per millisecond: far below what a copy between worlds or processes manages. */
const READ_CHARS_PER_MS = 2_000;

/** The longest a read carrying `load` should take on a slow but idle device; time beyond it was the machine's. */
export function expectedReadMs(load: ReadLoad): number {
  return READ_BASE_MS + load.entries * READ_MS_PER_ENTRY + load.chars / READ_CHARS_PER_MS;
}

/** The pause after a read of `readMs` that carried the tools of `framesRead` frames (`load`: what they came to). */
export function readPauseMs(readMs: number, framesRead: number, load: ReadLoad): number {
  if (!Number.isFinite(readMs) || readMs <= 0) return 0;
  const charged = Math.min(readMs, expectedReadMs(load));
  const frames = Math.max(1, framesRead);
  return Math.min(charged * frames * READ_TIME_FACTOR, MAX_PAUSE_MS_PER_FRAME_READ * frames, MAX_READ_PAUSE_MS);
}
