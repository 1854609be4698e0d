import { renderMarkdown } from '../chat/render-markdown';

/**
 * The privacy policy (docs/privacy.md, built in) as a page of its own. Rendered by the panel's Markdown rules
 * (sanitised, nothing fetched), though the text is the extension's own.
 */
export function PrivacyPolicy({ markdown }: { markdown: string }) {
  return (
    <div class="page">
      <main class="markdown privacy-policy" dangerouslySetInnerHTML={{ __html: renderMarkdown(markdown) }} />
    </div>
  );
}
