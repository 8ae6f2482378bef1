// The path of a Node binary of another supported line, for CI and the bench:
//   node scripts/node-line.mjs 24     prints the path of Node 24's binary
// installed from the npm registry's `node` package into .node-lines/<line>/ (git-ignored) the
// first time, then reused. The machines here run Node 20; users mostly run 22 and 24.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The binary of Node `line` (22, 24...), installed when missing. */
export function nodeLine(line) {
  if (!/^\d+$/.test(String(line))) throw new Error(`node-line: a major version, such as 24: not ${line}`);
  const folder = `${root}.node-lines/${line}`;
  const binary = `${folder}/node_modules/node/bin/node`;
  if (!existsSync(binary)) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(`${folder}/package.json`, '{ "private": true }\n');
    // The package's install script fetches nothing: the binary comes in a platform package.
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `node@${line}`], {
      cwd: folder,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${nodeLine(process.argv[2])}\n`);
}
