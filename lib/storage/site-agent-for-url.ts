import type { WebAgent } from '../agent/types';
import type { SiteProfile } from './settings';

/**
 * The page agent (req.agent) for a page: the profile whose origin is exactly the page's origin, as a WebAgent
 * whose id is that origin. Undefined when no profile matches or the URL is not a web page.
 */
export function siteAgentForUrl(profiles: readonly SiteProfile[], pageUrl: string | undefined): WebAgent | undefined {
  if (!pageUrl) return undefined;
  let origin: string;
  try {
    const url = new URL(pageUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    origin = url.origin;
  } catch {
    return undefined;
  }
  const profile = profiles.find((p) => p.origin === origin);
  if (!profile) return undefined;
  return {
    id: profile.origin,
    ...(profile.instructions ? { instructions: profile.instructions } : {}),
    ...(profile.maxSteps !== undefined ? { maxSteps: profile.maxSteps } : {}),
    ...(profile.tools && profile.tools.length > 0 ? { tools: [...profile.tools] } : {}),
  };
}
