// `--out /dev/fd/N` on a pipe the shell shares (`exec 3>&1` in a script) writes through a
// description of its own: the shared one stays blocking, so the script's later commands write to
// it as before (made non-blocking, they failed with EAGAIN and lost data).
import { expect, it } from 'vitest';
import { BIN, runProcess, shellQuote } from '../helpers/spawn.js';

const O_NONBLOCK = 0o4000;

it('leaves the shared pipe as it found it, and writes the data through it', async () => {
  // The group's stdout is a pipe into cat (a test runner's own stdout is a socket, which cdata refuses).
  const script = [
    '{',
    '  exec 3>&1',
    `  ${shellQuote(process.execPath)} ${shellQuote(BIN)} --sandbox agents -o csv --fields name --out /dev/fd/3 >/dev/null`,
    '  echo "cdata exit $?"',
    '  sed -n "s/^flags:[[:space:]]*//p" /proc/$BASHPID/fdinfo/3',
    '} | cat',
  ].join('\n');
  const result = await runProcess('bash', ['-c', script], { env: { CDATA_CONFIG_DIR: '/nonexistent-cdata-config' } });
  const lines = result.stdout.trimEnd().split('\n');
  const flags = Number.parseInt(lines.at(-1)!, 8);
  expect(lines.slice(0, 2)).toEqual(['name\r', 'tender-scout\r']); // CSV's CRLF
  expect(lines.at(-2)).toBe('cdata exit 0');
  expect(flags & O_NONBLOCK).toBe(0);
});
