/**
 * The processes of a browser the benches launched, read from /proc (Linux): which belong to it (by its profile
 * directory), and the CPU time each has spent, by what it runs. Shared by the benches that weigh what a page or the
 * extension costs the machine.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The browser's process and every process under it, with their command lines. */
export function browserProcesses(profile: string): { pid: number; cmdline: string }[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return { pid: Number(d), ppid, cmdline: readFileSync(`/proc/${d}/cmdline`, 'utf8').replaceAll('\0', ' ') };
      } catch {
        return undefined;
      }
    })
    .filter((p) => p !== undefined);
  const root = all.find((p) => p.cmdline.includes(`--user-data-dir=${profile}`) && !p.cmdline.includes('--type='));
  if (!root) return [];
  const tree = new Set([root.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => tree.has(p.pid));
}

/** CPU seconds (user + system, since each process started) of the browser's processes, by what each runs. */
export function cpuByKind(profile: string): Map<number, { kind: string; seconds: number }> {
  const out = new Map<number, { kind: string; seconds: number }>();
  for (const p of browserProcesses(profile)) {
    try {
      const stat = readFileSync(`/proc/${p.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, fields 14 and 15 of stat (11 and 12 after the command), in clock ticks of 1/100 s.
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
      const kind = p.cmdline.includes('--extension-process')
        ? 'extension'
        : p.cmdline.includes('--type=renderer')
          ? 'pages'
          : !p.cmdline.includes('--type=')
            ? 'browser'
            : 'gpu+utility';
      out.set(p.pid, { kind, seconds });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return out;
}

/**
 * Waits until the browser's processes of one kind are quiet: at most `maxMs` of CPU in a window of `windowMs`
 * (defaults: 20 ms in 500 ms, 4% of a core; /proc counts in steps of 10 ms), or `timeoutMs` passed. Gives the
 * milliseconds waited.
 */
export async function waitUntilQuiet(
  profile: string,
  kind: string,
  { windowMs = 500, maxMs = 20, timeoutMs = 10_000 }: { windowMs?: number; maxMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < timeoutMs) {
    const from = cpuByKind(profile);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    // The kind's CPU over the window; a process of that kind new since `from` (still starting) is not quiet.
    let spentMs = 0;
    for (const [pid, now] of cpuByKind(profile)) {
      if (now.kind !== kind) continue;
      const before = from.get(pid);
      spentMs += before ? (now.seconds - before.seconds) * 1000 : Number.POSITIVE_INFINITY;
    }
    if (spentMs <= maxMs) break;
  }
  return performance.now() - start;
}

/**
 * Closes a browser the benches launched on `profile`; one that a hostile page wedged may not close, so after `ms`
 * its processes are ended. Resolves true when it closed by itself.
 */
export async function closeOrKill(close: () => Promise<void>, profile: string, ms = 20_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    close().then(
      () => true,
      () => false,
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(resolve, ms, false);
    }),
  ]);
  clearTimeout(timer);
  if (!closed) {
    for (const p of browserProcesses(profile)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return closed;
}
