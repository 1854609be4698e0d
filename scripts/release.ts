/**
 * `npm run release`: everything a person installs, under release/<version>/ (git-ignored), from this checkout.
 *
 *   webmcp-agent-<v>-chrome.zip    the Chrome Web Store upload: the store build (`--mode store`: no development
 *                                  `key`, none of the tests' hooks), otherwise the build the tests load
 *   webmcp-agent-<v>-firefox.zip   the addons.mozilla.org upload, the same store build for Firefox
 *   webmcp-agent-<v>-sources.zip   its sources for AMO's reviewers, with BUILDING.md (the exact steps)
 *   webmcp-agent-bridge-<v>.tgz    `npm pack` of bridge/: what `npm publish` would upload
 *   screenshots/*.png              the store listing's screenshots, taken from the Chrome store build on the demo shop
 *   SHA256SUMS, BUILD-INFO.json    checksums; the version, commit, Node and npm the packages were made with
 *
 * The version is package.json's; bridge/package.json must say the same (`npm version X --workspaces
 * --include-workspace-root` sets both). `-- --no-screenshots` skips the one step that starts a browser. What each
 * package does when installed is tested by tests/release/check-release.ts (a phase of `npm test`).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { releaseFiles } from './release-files';
import { takeStoreScreenshots } from './take-store-screenshots';

function readVersion(path: string): string {
  return String(JSON.parse(readFileSync(path, 'utf8')).version);
}

function run(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: 'inherit' });
}

function output(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

function humanSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

async function main(): Promise<number> {
  const version = readVersion('package.json');
  const bridgeVersion = readVersion('bridge/package.json');
  if (bridgeVersion !== version) {
    console.error(
      `release: package.json says ${version} but bridge/package.json says ${bridgeVersion}. Set both with \`npm version ${version} --workspaces --include-workspace-root --no-git-tag-version\`.`,
    );
    return 1;
  }
  // AMO's sources zip carries the project's .npmrc (the build needs its settings): never a registry credential.
  if (/_auth|_password|token\s*=/i.test(readFileSync('.npmrc', 'utf8'))) {
    console.error('release: .npmrc holds a registry credential, which the sources zip would publish. Keep credentials in ~/.npmrc.');
    return 1;
  }
  const files = releaseFiles(version);
  rmSync(files.dir, { recursive: true, force: true });
  mkdirSync(files.dir, { recursive: true });

  // The store builds, zipped by WXT (and for Firefox its sources zip, as wxt.config.ts `zip` lists them).
  for (const browser of ['chrome', 'firefox']) {
    run('npx', ['wxt', 'zip', '-b', browser, '--mode', 'store']);
  }
  for (const [made, wanted] of [
    [`.output/webmcp-agent-${version}-chrome.zip`, files.chromeZip],
    [`.output/webmcp-agent-${version}-firefox.zip`, files.firefoxZip],
    [`.output/webmcp-agent-${version}-sources.zip`, files.sourcesZip],
  ]) {
    if (!existsSync(made)) throw new Error(`wxt zip wrote no ${made}`);
    renameSync(made, wanted);
  }
  // `prepack` builds bridge/dist/cli.js first.
  run('npm', ['pack', '--workspace', 'bridge', '--pack-destination', files.dir, '--silent']);
  if (!existsSync(files.bridgeTarball)) throw new Error(`npm pack wrote no ${files.bridgeTarball}`);

  if (!process.argv.includes('--no-screenshots')) {
    await takeStoreScreenshots('.output/chrome-mv3-store', files.screenshots);
  }

  const made = [files.chromeZip, files.firefoxZip, files.sourcesZip, files.bridgeTarball];
  writeFileSync(
    join(files.dir, 'SHA256SUMS'),
    made.map((path) => `${createHash('sha256').update(readFileSync(path)).digest('hex')}  ${path.slice(files.dir.length + 1)}\n`).join(''),
  );
  writeFileSync(
    join(files.dir, 'BUILD-INFO.json'),
    `${JSON.stringify(
      {
        version,
        commit: output('git', ['rev-parse', 'HEAD']),
        uncommittedChanges: output('git', ['status', '--porcelain']) !== '',
        node: process.version,
        npm: output('npm', ['--version']),
        platform: `${process.platform} ${process.arch}`,
      },
      null,
      2,
    )}\n`,
  );

  console.log(`\nRelease ${version} in ${files.dir}/:`);
  for (const path of made) console.log(`  ${path.slice(files.dir.length + 1).padEnd(36)} ${humanSize(statSync(path).size)}`);
  if (existsSync(files.screenshots)) {
    console.log(`  screenshots/: ${readdirSync(files.screenshots).sort().join(', ')}`);
  }
  return 0;
}

process.exit(await main());
