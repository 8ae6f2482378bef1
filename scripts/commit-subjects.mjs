// Commit subjects at most 72 characters, the why in the body (docs/development.md#habits): checks
// every commit after FROM, the last one before this check existed (114 of the 219
// earlier subjects are longer; merged history is not rewritten). Run by `npm run lint` and so by CI.
import { execFileSync } from 'node:child_process';

const FROM = '30bfc52';
const LIMIT = 72;

let log;
try {
  execFileSync('git', ['cat-file', '-e', `${FROM}^{commit}`], { stdio: 'ignore' });
  log = execFileSync('git', ['log', '--format=%h %s', `${FROM}..HEAD`], { encoding: 'utf8' });
} catch {
  // Not a clone, or a shallow one without that commit: nothing to check here.
  console.log(`commit subjects: not checked (no git history back to ${FROM})`);
  process.exit(0);
}
const long = log
  .split('\n')
  .filter(Boolean)
  .filter((line) => [...line.slice(line.indexOf(' ') + 1)].length > LIMIT);
if (long.length > 0) {
  console.error(`error: ${long.length} commit subject(s) over ${LIMIT} characters (the why goes in the body):`);
  for (const line of long) console.error(`  ${line}`);
  process.exit(1);
}
