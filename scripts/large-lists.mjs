// A server whose every list is as large as the API's answers may be: 200 rows of 78,000-character
// titles, about 15.6 MB a list, 8 lists. `variant` picks the titles' letter, so an export of one
// variant and then of another changes every row of every list (the diffing export's worst case).
// For the memory bounds of large exports (issue 29): test/export/large.heavy.test.ts and `npm run bench`.
import { createServer } from 'node:http';

export const LARGE_ROWS = 200;
export const TITLE_LENGTH = 78_000;

/** The key field of each list, by the path's last segment (src/core/endpoints.ts). */
const KEYS = {
  workspaces: 'id',
  companies: 'id',
  documents: 'id',
  obligations: 'id',
  persons: 'id',
  sites: 'id',
  tenders: 'ocid',
  agents: 'name',
};

/** The body of a list for `variant` (a letter), built once per list and variant. */
function body(list, variant) {
  const key = KEYS[list];
  const title = variant.repeat(TITLE_LENGTH);
  const rows = Array.from({ length: LARGE_ROWS }, (_, i) =>
    JSON.stringify({
      [key]: `${list}-${String(i).padStart(3, '0')}`,
      title,
      createdAt: new Date(Date.UTC(2026, 10, 22) - i * 3_600_000).toISOString(),
    }),
  );
  return Buffer.from(`[${rows.join(',')}]`);
}

/** Starts the server on 127.0.0.1, port 0; `variant()` is read at each request. */
export async function startLargeLists(variant = () => 'a') {
  const cache = new Map();
  const server = createServer((req, res) => {
    req.resume();
    const list = new URL(req.url, 'http://x').pathname.split('/').at(-1);
    if (!(list in KEYS)) {
      res.writeHead(404, { 'Content-Type': 'application/problem+json' });
      res.end('{"status":404,"title":"Not Found"}');
      return;
    }
    const name = `${list}:${variant()}`;
    if (!cache.has(name)) cache.set(name, body(list, variant()));
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(cache.get(name));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
