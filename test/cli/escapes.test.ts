// Escape sequences in API text never reach a terminal raw: table, tsv and stderr show them
// escaped, and so does csv when stdout is a terminal. (In a pipe or a file, CSV keeps the data
// exactly as sent; JSON always keeps it, escaping as JSON itself allows.)
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FAULTS, type Fault } from '../../src/sandbox/faults.js';
import { faultAlways, NOW, useSandboxes } from '../helpers/api.js';
import { cdata, unsafeChars } from '../helpers/checked.js';
import { NASTY, problemWith, redirectWith } from '../helpers/hostile.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ now: () => NOW });
const makeSandbox = useSandboxes();
const env = () => sandboxEnv(sandbox.current);

const ESCAPED_TITLE =
  'Supply of \\x1b[31mURGENT\\x1b[0m road-marking paint \\x1b]8;;https://evil.example/\\x07(click)\\x1b]8;;\\x07\\x1b]52;c;ZWNobyBwd25lZA==\\x07';
const ESCAPED_BIDI = 'Construction of a multipurpose hall \\u202eretne\\u202c, ward 7';
/** The SGR colour codes chalk writes, and nothing else. */
const SGR = /\u001b\[[0-9;]*m/g;

describe('demo data with escape sequences', () => {
  it('the raw title really is in the data (csv keeps it as sent)', async () => {
    const csv = await cdata(['tenders', '--limit', '200', '-o', 'csv', '-f', 'title'], { env: env() });
    expect(csv.stdout).toContain('Supply of \u001b[31mURGENT\u001b[0m road-marking paint');
  });

  it('table: escaped text, no control bytes', async () => {
    const result = await cdata(['tenders', '--limit', '200', '--fields', 'ocid,title', '--color', 'never'], {
      env: env(),
      stdoutTTY: true,
    });
    expect(result.code).toBe(0);
    expect(unsafeChars(result.stdout)).toEqual([]);
    expect(result.stdout).toContain(ESCAPED_TITLE);
    expect(result.stdout).toContain(ESCAPED_BIDI);
  });

  it('table in colour: chalk colour codes only', async () => {
    const result = await cdata(['tenders', '--limit', '200', '--color', 'always'], {
      env: env(),
      stdoutTTY: true,
      columns: 400,
    });
    expect(result.stdout).toMatch(SGR);
    expect(unsafeChars(result.stdout.replace(SGR, ''))).toEqual([]);
    expect(stripVTControlCharacters(result.stdout)).toContain(ESCAPED_TITLE);
  });

  it('a narrow table cuts escaped text, never an escape in half', async () => {
    const result = await cdata(['tenders', '--limit', '200', '--fields', 'title'], {
      env: env(),
      stdoutTTY: true,
      columns: 30,
    });
    expect(unsafeChars(result.stdout.replace(SGR, ''))).toEqual([]);
    expect(result.stdout).toContain('\nSupply of \\x1b[31mURGENT\\x1b[…\n');
  });

  it('csv to a terminal: escaped as in a table; to a pipe or a file: exactly as sent', async () => {
    const shown = await cdata(['tenders', '--limit', '200', '-o', 'csv', '-f', 'ocid,title'], {
      env: env(),
      stdoutTTY: true,
    });
    expect(shown.code).toBe(0);
    expect(unsafeChars(shown.stdout.replace(/\r\n/g, '\n'))).toEqual([]);
    expect(shown.stdout).toContain(`,${ESCAPED_TITLE}\r\n`);
    const piped = await cdata(['tenders', '--limit', '200', '-o', 'csv', '-f', 'ocid,title'], { env: env() });
    expect(piped.stdout).toContain('Supply of \u001b[31mURGENT\u001b[0m road-marking paint');
    // Only the unsafe text differs: every other cell is the same.
    const plain = (text: string) =>
      text
        .split('\r\n')
        .filter(
          (line) =>
            !/\\x|\\u|[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(line),
        );
    expect(plain(shown.stdout)).toEqual(plain(piped.stdout));
  });

  it('tsv: escaped text, tabs only between fields', async () => {
    const result = await cdata(['tenders', '--limit', '200'], { env: env() });
    expect(unsafeChars(result.stdout, { allowTab: true })).toEqual([]);
    expect(result.stdout).toContain(`\t${ESCAPED_TITLE}\t`);
    for (const line of result.stdout.trimEnd().split('\n')) expect(line.split('\t')).toHaveLength(13);
  });
});

describe('API text on stderr', () => {
  it.each([
    ['a 403 problem', problemWith(403, () => NASTY), 4],
    ['a 500 problem', problemWith(500, () => NASTY), 6],
    ['a redirect', redirectWith(() => encodeURI('\u001b[31m')), 7],
    [
      'a non-JSON answer',
      ((_req, res) => (res.writeHead(200, { 'Content-Type': 'text/plain' }).end(NASTY), 200)) as Fault,
      7,
    ],
    [
      'broken JSON',
      ((_req, res) => (res.writeHead(200, { 'Content-Type': 'application/json' }).end(`[${NASTY}`), 200)) as Fault,
      7,
    ],
  ] as [string, Fault, number][])(
    '%s: escaped in the message, the trace and the JSON error line',
    async (_what, fault, code) => {
      const target = await makeSandbox({ faults: faultAlways(fault) });
      for (const extra of [[], ['--json', '--debug']]) {
        const result = await cdata(['tenders', '--retries', '0', ...extra], { env: sandboxEnv(target) });
        expect(result.code).toBe(code);
        expect(unsafeChars(result.stderr)).toEqual([]);
      }
    },
  );

  it('the problem detail shows its escapes as text, and the JSON line still parses to the raw detail', async () => {
    const target = await makeSandbox({ faults: faultAlways(problemWith(403, () => NASTY)) });
    const result = await cdata(['tenders', '--json'], { env: sandboxEnv(target) });
    const [message, , json] = result.stderr.split('\n');
    expect(message).toContain(
      'Detail A\\x1b[31mred\\x1b[0m \\x1b]8;;https://evil.example/\\x07link\\x1b]8;;\\x07 \\x9b2J \\x7f \\x85 \\u202eevil\\u202c \\x08 end',
    );
    expect(JSON.parse(json!).error.detail).toBe(`Detail ${NASTY}`);
  });

  it('an unknown command or option is escaped too', async () => {
    const command = await cdata(['\u001b[2Jtenders'], { env: env() });
    expect(command.code).toBe(2);
    expect(command.stderr.split('\n')[0]).toBe("error: unknown command '\\x1b[2Jtenders'");
    const option = await cdata(['tenders', '--\u009b31m'], { env: env() });
    expect(option.stderr.split('\n')[0]).toBe("error: unknown option '--\\x9b31m'");
  });

  it('an empty table says so on stderr', async () => {
    const target = await makeSandbox({ faults: faultAlways(FAULTS.emptyList) });
    const result = await cdata(['tenders'], { env: sandboxEnv(target), stdoutTTY: true });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: 'No tenders found.\n' });
  });
});
