import { useState } from 'preact/hooks';
import { hostOf } from '../../lib/shared/host-of';
import type { SharingStore } from './create-sharing-store';

/**
 * The options page's part of the bridge to desktop agents: the switch that turns it on (nothing is shared before,
 * and each site is then shared from the side panel), whether the local bridge answers, which desktop agents are
 * connected, and every shared site with "Stop sharing".
 */
export function SharingSection({ sharing, pairing = false }: { sharing: SharingStore; pairing?: boolean }) {
  const state = sharing.state.value;
  const link = state?.link;
  const [code, setCode] = useState('');
  return (
    <section class="card" aria-labelledby="sharing-title">
      <h2 id="sharing-title">Desktop agents</h2>
      <p class="hint" id="sharing-hint">
        Let an MCP client on this computer (Claude Code, Cursor, Claude Desktop) use the tools of the sites you share, through a local
        bridge (no network port). Install it once from a clone of WebMCP Agent with <code>npm run bridge -- install</code>. Then share a
        site, or a single tab, from the side panel. Every call that is not read-only asks you there first, as the agent's do.
      </p>
      {!state ? (
        <p class="placeholder">Asking the agent host…</p>
      ) : (
        <>
          <label class="toggle">
            <input
              type="checkbox"
              checked={state.enabled}
              aria-describedby="sharing-hint"
              onChange={(e) => sharing.setEnabled((e.currentTarget as HTMLInputElement).checked)}
            />{' '}
            Share tools with desktop agents
          </label>
          {pairing && (
            // Firefox gives content scripts connectNative too: the host serves only whoever holds this code.
            <form
              class="pairing"
              onSubmit={(e) => {
                e.preventDefault();
                if (code.trim()) sharing.pair(code);
                setCode('');
              }}
            >
              <label for="pairing-code">Pairing code{state.paired ? ' (one is saved; type a new one to replace it)' : ''}</label>
              <input
                id="pairing-code"
                autocomplete="off"
                spellcheck={false}
                placeholder="XXXX-XXXX-XXXX"
                value={code}
                onInput={(e) => setCode((e.currentTarget as HTMLInputElement).value)}
              />
              <button type="submit" class="button">
                Save code
              </button>
              <p class="hint">Firefox only: the code `npm run bridge -- install` printed (`npm run bridge -- status` shows it again).</p>
            </form>
          )}
          {state.enabled && (
            <p class={link?.state === 'failed' ? 'problem' : 'hint'} role="status">
              {link?.state === 'open'
                ? state.clients.length > 0
                  ? `Connected: ${state.clients.map((c) => (c.version ? `${c.name} ${c.version}` : c.name)).join(', ')}.`
                  : 'The bridge is running. No desktop agent is connected yet.'
                : link?.state === 'failed'
                  ? link.error
                  : 'Starting the bridge…'}
            </p>
          )}
          {state.enabled && (
            <>
              <h3>Shared sites</h3>
              {state.sites.length === 0 && state.tabs.length === 0 ? (
                <p class="hint">None yet. Open a site, then the side panel, and choose Share this site.</p>
              ) : (
                <ul aria-label="Shared sites">
                  {state.sites.map((site) => (
                    <li key={site}>
                      {hostOf(site)}{' '}
                      <button type="button" class="button" onClick={() => sharing.stop({ site })}>
                        Stop sharing
                      </button>
                    </li>
                  ))}
                  {state.tabs.map((t) => (
                    <li key={`tab-${t.tabId}`}>
                      {hostOf(t.site)}, only the tab “{t.title ?? 'untitled'}”{' '}
                      <button type="button" class="button" onClick={() => sharing.stop({ tabId: t.tabId })}>
                        Stop sharing
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
