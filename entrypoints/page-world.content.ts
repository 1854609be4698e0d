export default defineContentScript({
  matches: ['<all_urls>'],
  allFrames: true,
  matchAboutBlank: true,
  runAt: 'document_start',
  world: 'MAIN',
  main() {
    window.addEventListener('webmcp-agent:ping', () => window.dispatchEvent(new Event('webmcp-agent:pong')));
  },
});
