// `npm run docs`: rewrites the README's command table from the command registry
// (src/docs/commands-table.ts), between its markers. test/docs fails when it is stale.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const bundled = await build({
  absWorkingDir: root.pathname,
  entryPoints: ['src/docs/commands-table.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  write: false,
  define: { __CDATA_VERSION__: '"docs"' },
  logLevel: 'warning',
});
const { commandsTable, START, END } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const start = readme.indexOf(START);
const end = readme.indexOf(END);
if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${START} ... ${END}`);
writeFileSync(new URL('README.md', root), `${readme.slice(0, start + START.length)}\n${commandsTable()}\n${readme.slice(end)}`);
console.log('README.md: command table updated');
