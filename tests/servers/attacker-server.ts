/**
 * The attacker's loopback server for exfiltration tests: it answers every request with a 1×1 GIF, with CORS and
 * CORP open (an attacker lets any page read and embed what they serve; without CORP, Chrome's cross-origin
 * isolated extension pages would refuse the response, though only after the request had left), and records
 * each request as "METHOD /path?query". A test asserts `requests` stays empty.
 */
import { startStaticServer } from './static-server';

export interface AttackerServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Every request received, as "GET /v/name?d=secret". */
  requests: string[];
  close: () => Promise<void>;
}

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export async function startAttackerServer(): Promise<AttackerServer> {
  const server = await startStaticServer({});
  const requests: string[] = [];
  server.route((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, {
      'content-type': 'image/gif',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'cache-control': 'no-store',
    });
    res.end(GIF);
    return true;
  });
  return { url: server.url, requests, close: server.close };
}
