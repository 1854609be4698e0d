/**
 * The inner loop (`npm run test:changed`): runs only the unit tests and E2E specs that a change touches, as
 * scripts/tests-for-changes.ts selects them. A change is what differs from main: the branch's commits, staged and
 * unstaged edits, and new files.
 *
 *   npm run test:changed                        # unit tests (vitest related), build if needed, the E2E specs (polyfill and on-device projects)
 *   npm run test:changed -- --dry-run           # only print what it would run
 *   npm run test:changed -- --base origin/main  # compare with another ref
 *   npm run test:changed -- --project=native    # anything else goes to Playwright; a --project replaces the default
 *
 * The E2E specs run in the `polyfill` project (and `on-device`, where the on-device model's specs run without native
 * WebMCP) unless a --project is given: the path every browser without native WebMCP takes, and half the time of all
 * the projects. CI runs them all.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { testsForChanges } from './tests-for-changes';

function git(args: string[]): string[] {
  const result = spawnSync('git', args, { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.split('\n').filter(Boolean) : [];
}

function changedFiles(base: string): string[] {
  const mergeBase = git(['merge-base', base, 'HEAD'])[0];
  return [
    ...new Set([
      ...(mergeBase ? git(['diff', '--name-only', mergeBase, 'HEAD']) : []),
      ...git(['diff', '--name-only', 'HEAD']),
      ...git(['ls-files', '--others', '--exclude-standard']),
    ]),
  ];
}

function run(command: string, args: string[]): boolean {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { stdio: 'inherit' }).status === 0;
}

function main(argv: string[]): number {
  const dryRun = argv.includes('--dry-run');
  const baseAt = argv.indexOf('--base');
  const base = baseAt >= 0 ? argv[baseAt + 1] : 'main';
  const passOn = argv.filter((arg, i) => arg !== '--dry-run' && (baseAt < 0 || (i !== baseAt && i !== baseAt + 1)));
  if (!passOn.some((arg) => arg.startsWith('--project'))) passOn.push('--project=polyfill', '--project=on-device');
  const changed = changedFiles(base);
  const e2eFiles = new Map(
    readdirSync('tests/e2e')
      .filter((file) => file.endsWith('.ts'))
      .map((file) => [file, readFileSync(`tests/e2e/${file}`, 'utf8')] as const),
  );
  const selected = testsForChanges(changed, { e2eFiles });
  const unitInputs = selected.unitInputs.filter((file) => existsSync(file));
  const build = selected.build || (selected.specs.length > 0 && !existsSync('.output/chrome-mv3/manifest.json'));
  console.log(`Changed since ${base}: ${changed.length} file(s)`);
  console.log(`  unit: vitest related ${unitInputs.length > 0 ? unitInputs.join(' ') : '(nothing)'}`);
  console.log(`  build first: ${build ? 'yes' : 'no'}`);
  console.log(`  E2E specs: ${selected.specs.length > 0 ? `${selected.specs.join(', ')} (${passOn.join(' ')})` : '(none)'}`);
  console.log(`  Firefox smoke: ${selected.firefox ? 'yes' : 'no'}`);
  console.log(`  release test: ${selected.release ? 'yes' : 'no'}`);
  if (selected.everywhere.length > 0) {
    console.log(`  ${selected.everywhere.join(', ')} reach(es) everything: run \`npm test\` before you push.`);
  }
  if (dryRun) return 0;
  let ok = true;
  if (unitInputs.length > 0) ok = run('npx', ['vitest', 'related', '--run', '--passWithNoTests', ...unitInputs]) && ok;
  if (build) ok = run('npm', ['run', '--silent', 'build']) && ok;
  // Half a second: the desktop-agent specs and the Firefox smoke install the built bridge (tests/fixtures/mcp-desktop-agent.ts).
  if (selected.specs.length > 0 || selected.firefox) ok = run('npm', ['run', '--silent', 'build:bridge']) && ok;
  if (selected.specs.length > 0) {
    ok = run('npx', ['playwright', 'test', ...selected.specs.map((spec) => `tests/e2e/${spec}.spec.ts`), ...passOn]) && ok;
  }
  if (selected.firefox) ok = run('npm', ['run', '--silent', 'build:firefox']) && run('npx', ['tsx', 'tests/firefox/smoke.ts']) && ok;
  if (selected.release) ok = run('npx', ['tsx', 'tests/release/check-release.ts']) && ok;
  return ok ? 0 : 1;
}

process.exit(main(process.argv.slice(2)));
