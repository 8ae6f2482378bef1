// `npm run package [-- DEST]`: the tarball users install. Packed from a staging folder holding only
// what ships (package.json `files`, README.md, LICENSE), with a package.json stripped of what
// only this repository needs: its scripts (`prepare` builds from src/, which does not ship, and
// npm 11 would list it as an install script waiting for approval) and devDependencies (everything
// is bundled into dist/). Prints the tarball's name and size (`--json`: npm pack's JSON report).
// `--no-build` packs the dist/ already built.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempFolder } from './temp-folder.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const destination = resolve(args.find((a) => !a.startsWith('--')) ?? root);
const run = (command, argv, cwd) => {
  const result = spawnSync(command, argv, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${argv.join(' ')} failed with exit ${result.status}`);
  return result.stdout;
};

if (!args.includes('--no-build')) run(process.execPath, [join(root, 'scripts/build.mjs')], root);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const stage = tempFolder('cdata-stage-'); // removed when this script ends, however it ends
for (const entry of [...pkg.files, 'README.md', 'LICENSE'])
  cpSync(join(root, entry), join(stage, entry), { recursive: true });
const { name, version, description, type, license, bin, exports, man, files, engines } = pkg;
writeFileSync(
  join(stage, 'package.json'),
  `${JSON.stringify({ name, version, description, type, license, bin, exports, man, files, engines }, null, 2)}\n`,
);
const report = run('npm', ['pack', '--json', '--pack-destination', destination], stage);
if (args.includes('--json')) process.stdout.write(report);
else {
  const [{ filename, size, entryCount }] = JSON.parse(report.slice(report.indexOf('[')));
  process.stdout.write(`wrote ${join(destination, filename)} (${entryCount} files, ${(size / 1024).toFixed(0)} KB)\n`);
}
