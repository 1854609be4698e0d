import { join } from 'node:path';

/** Where `npm run release` (scripts/release.ts) writes each package of one version; the release test reads them there. */
export function releaseFiles(version: string, root = 'release') {
  const dir = join(root, version);
  return {
    dir,
    chromeZip: join(dir, `webmcp-agent-${version}-chrome.zip`),
    firefoxZip: join(dir, `webmcp-agent-${version}-firefox.zip`),
    sourcesZip: join(dir, `webmcp-agent-${version}-sources.zip`),
    bridgeTarball: join(dir, `webmcp-agent-bridge-${version}.tgz`),
    screenshots: join(dir, 'screenshots'),
  };
}
