import { MAX_DELEGATION_DEPTH } from '../agent/select-tools';
import type { WebAgent } from '../agent/types';
import type { SiteProfile, SubAgentProfile } from './settings';

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
    ...(profile.subAgents && profile.subAgents.length > 0 ? { subAgents: subAgentsOf(profile.subAgents, undefined, 1) } : {}),
  };
}

/**
 * The sub-agents as WebAgents: the site's agent gets every sub-agent (`ids` undefined), a sub-agent the ones it
 * names. Cut at the delegation depth, so even a stored profile with a cycle gives a finite tree.
 */
function subAgentsOf(all: readonly SubAgentProfile[], ids: readonly string[] | undefined, depth: number): WebAgent[] {
  if (depth > MAX_DELEGATION_DEPTH) return [];
  const chosen = ids ? all.filter((sub) => ids.includes(sub.id)) : all;
  return chosen.map((sub) => {
    const theirs = sub.subAgents?.length ? subAgentsOf(all, sub.subAgents, depth + 1) : [];
    return {
      id: sub.id,
      name: sub.name,
      ...(sub.instructions ? { instructions: sub.instructions } : {}),
      ...(sub.maxSteps !== undefined ? { maxSteps: sub.maxSteps } : {}),
      ...(sub.tools && sub.tools.length > 0 ? { tools: [...sub.tools] } : {}),
      ...(theirs.length > 0 ? { subAgents: theirs } : {}),
    };
  });
}
