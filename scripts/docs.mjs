// `npm run docs`: writes what the docs derive from the command registry: the README's command
// table (src/docs/commands-table.ts, between its markers) and the man page (src/docs/man.ts,
// man/cdata.1). test/docs fails when either is stale.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const bundled = await build({
  absWorkingDir: root.pathname,
  stdin: {
    contents: "export * from './src/docs/commands-table'; export * from './src/docs/man';",
    resolveDir: root.pathname,
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'node',
  write: false,
  // The man page names the version, as `cdata --version` does.
  define: { __CDATA_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
const { commandsTable, START, END, manPage, MAN_PATH } = await import(
  `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`
);

const readme = readFileSync(new URL('README.md', root), 'utf8');
const start = readme.indexOf(START);
const end = readme.indexOf(END);
if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${START} ... ${END}`);
writeFileSync(
  new URL('README.md', root),
  `${readme.slice(0, start + START.length)}\n${commandsTable()}\n${readme.slice(end)}`,
);
console.log('README.md: command table updated');

const man = new URL(MAN_PATH, root);
mkdirSync(dirname(man.pathname), { recursive: true });
writeFileSync(man, manPage());
console.log(`${MAN_PATH}: written`);
