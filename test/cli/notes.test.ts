// Colour (--color, NO_COLOR, FORCE_COLOR), notes on stderr and -q, the truncation note, and
// the empty list.
import { describe, expect, it } from 'vitest';
import { fieldNames, findEndpoint } from '../../src/core/endpoints.js';
import { FAULTS } from '../../src/sandbox/faults.js';
import { faultAlways, faultsAt, NOW, useSandboxes } from '../helpers/api.js';
import { cdata } from '../helpers/checked.js';
import { screen } from '../helpers/screen.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox({ now: () => NOW });
const makeSandbox = useSandboxes();
const env = () => sandboxEnv(sandbox.current);
const GREEN = '\u001b[32m';

describe('colour', () => {
  const table = async (flags: string[], extraEnv: Record<string, string | undefined>, stdoutTTY: boolean) =>
    (await cdata(['tenders', '--limit', '5', '-o', 'table', ...flags], { env: { ...env(), ...extraEnv }, stdoutTTY }))
      .stdout;

  it.each([
    ['auto on a terminal', [], {}, true, true],
    ['auto in a pipe', [], {}, false, false],
    ['--color always in a pipe', ['--color', 'always'], {}, false, true],
    ['--color never on a terminal', ['--color', 'never'], {}, true, false],
    ['NO_COLOR on a terminal', [], { NO_COLOR: '1' }, true, false],
    ['an empty NO_COLOR on a terminal', [], { NO_COLOR: '' }, true, true],
    ['FORCE_COLOR in a pipe', [], { FORCE_COLOR: '1' }, false, true],
    ['FORCE_COLOR=0 on a terminal', [], { FORCE_COLOR: '0' }, true, false],
    ['TERM=dumb on a terminal', [], { TERM: 'dumb' }, true, false],
    ['TERM unset on a terminal (env -i)', [], { TERM: undefined }, true, false],
    ['TERM empty on a terminal', [], { TERM: '' }, true, false],
    ['--color always over NO_COLOR', ['--color', 'always'], { NO_COLOR: '1' }, true, true],
    ['--color never over FORCE_COLOR', ['--color', 'never'], { FORCE_COLOR: '3' }, true, false],
  ] as [string, string[], Record<string, string | undefined>, boolean, boolean][])(
    '%s',
    async (_what, flags, extraEnv, tty, coloured) => {
      const out = await table(flags, extraEnv, tty);
      expect(out).toContain('RECOMMENDED');
      if (coloured) expect(out).toContain(`${GREEN}\u001b[1mRECOMMENDED`);
      else expect(out).not.toContain('\u001b');
    },
  );

  it('colours tier, decision, status and a negative runway, each colour with one meaning (docs/output.md)', async () => {
    const tenders = (
      await cdata(['tenders', '--color', 'always', '-f', 'tier,decision,runwayDays'], { env: env(), stdoutTTY: true })
    ).stdout;
    // The tiers: green the best, cyan the next, the last plain; the decisions: blue, magenta, yellow.
    for (const code of [
      `${GREEN}\u001b[1mRECOMMENDED`,
      '\u001b[36mWORTH_A_LOOK',
      '\u001b[34mBID',
      '\u001b[35mNO_BID',
      '\u001b[33mCLARIFY_FIRST',
    ])
      expect(tenders).toContain(code);
    expect(tenders).toMatch(/(^|\n)STRETCH /);
    // Past due: red, and a minus sign without colour; red marks nothing else here.
    expect(tenders).toMatch(/\u001b\[31m-\d+\u001b\[39m/);
    expect(tenders).not.toMatch(/\u001b\[31m[^-]/);
    const sites = (await cdata(['sites', '-o', 'table', '--color', 'always', '-f', 'status'], { env: env() })).stdout;
    expect(sites).toContain('\u001b[2mCLOSED');
    expect(sites).toMatch(/\nACTIVE\n[^]*\nPLANNED\n|\nPLANNED\n[^]*\nACTIVE\n/);
    const obligations = (
      await cdata(['obligations', '-o', 'table', '--color', 'always', '-f', 'status'], { env: env() })
    ).stdout;
    for (const code of ['\u001b[33mOPEN', '\u001b[2mDONE']) expect(obligations).toContain(code);
  });

  it('an open obligation past its due date: its dueOn red, by the day it is where cdata runs', async () => {
    const rows = async (now: number) => {
      const out = await cdata(
        ['obligations', '-o', 'table', '--color', 'always', '-f', 'status,dueOn', '--no-header'],
        {
          env: env(),
          now: () => now,
        },
      );
      return out.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.replace(/\u001b\[(33|90)m|\u001b\[39m(?!\S)/g, ''));
    };
    const today = await rows(NOW);
    const day = (line: string) => /(\d{4}-\d{2}-\d{2})/.exec(line)?.[1] ?? '9999-12-31'; // none: not due
    const ymd = new Date(NOW);
    const date = `${ymd.getFullYear()}-${String(ymd.getMonth() + 1).padStart(2, '0')}-${String(ymd.getDate()).padStart(2, '0')}`;
    for (const line of today) {
      const overdue = line.startsWith('OPEN') && day(line) < date;
      expect(line.includes('\u001b[31m'), line).toBe(overdue);
    }
    expect(today.some((line) => line.includes('\u001b[31m'))).toBe(true);
    // A year before, nothing was due yet.
    expect((await rows(NOW - 365 * 86_400_000)).some((line) => line.includes('\u001b[31m'))).toBe(false);
  });

  it.each(['json', 'ndjson', 'csv', 'tsv'])('never in %s, even when forced', async (format) => {
    const result = await cdata(['tenders', '-o', format, '--color', 'always', '-f', 'ocid,tier,score,decision'], {
      env: { ...env(), FORCE_COLOR: '3' },
      stdoutTTY: true,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('RECOMMENDED');
    expect(result.stdout).not.toContain('\u001b');
  });
});

describe('the truncation note', () => {
  // What the terminal shows of stderr: on a loaded machine an answer may take long enough for the
  // wait's spinner to be drawn, and cleared, before the note.
  const run = async (argv: string[], stderrTTY = true) => {
    const result = await cdata(argv, { env: env(), stderrTTY, stdoutTTY: true });
    return { ...result, stderr: stderrTTY ? screen(result.stderr) : result.stderr };
  };

  it('when a list returns as many rows as its limit, on a terminal', async () => {
    const result = await run(['obligations', '--limit', '5']);
    expect(result.stderr).toBe('These are the 5 newest obligations; more may exist (--limit takes up to 200).');
  });

  it('persons are people in a sentence, as the command is named too; one of them a person', async () => {
    expect((await run(['people', '--limit', '5'])).stderr).toBe(
      'These are the 5 newest people; more may exist (--limit takes up to 200).',
    );
    expect((await run(['persons', '--limit', '1'])).stderr).toBe(
      'This is the newest person; more may exist (--limit takes up to 200).',
    );
  });

  it('tenders come best tier first, so their note says best-matched, not newest; a sentence for one row too', async () => {
    expect((await run(['tenders', '--limit', '5'])).stderr).toBe(
      'These are the 5 best-matched tenders; more may exist (--limit takes up to 200).',
    );
    // One row: a sentence in the singular, not `the best-matched 1 tenders`.
    expect((await run(['tenders', '--limit', '1'])).stderr).toBe(
      'This is the best-matched tender; more may exist (--limit takes up to 200).',
    );
    expect((await run(['companies', '--limit', '1'])).stderr).toBe(
      'This is the newest company; more may exist (--limit takes up to 200).',
    );
  });

  it('a filter that chose the rows is named in the note: not the best-matched tenders, the best-matched STRETCH ones', async () => {
    expect((await run(['tenders', '--tier', 'stretch', '--limit', '1'])).stderr).toBe(
      'This is the best-matched STRETCH tender; more may exist (--limit takes up to 200).',
    );
  });

  it('says at 200 that the API cannot return more', async () => {
    const result = await run(['obligations', '--limit', '200']);
    expect(result.stderr).toBe(
      'These are the 200 newest obligations, the most the API returns: older ones cannot be listed (the API has no paging).',
    );
  });

  it('not when fewer rows came, not when stderr is not a terminal, not with -q', async () => {
    expect((await run(['tenders'])).stderr).toBe(''); // 64 tenders < 100
    expect((await run(['obligations', '--limit', '5'], false)).stderr).toBe('');
    const quiet = await cdata(['obligations', '--limit', '5', '-q'], { env: env(), stderrTTY: true, stdoutTTY: true });
    expect(quiet.stderr).toBe(''); // -q: not even a spinner
  });
});

describe('-q', () => {
  it('silences notes but not errors', async () => {
    const clamped = await cdata(['obligations', '--limit', '900', '-q'], { env: env(), stderrTTY: true });
    expect(clamped).toMatchObject({ code: 0, stderr: '' });
    const waited = await cdata(['workspaces', '-q'], {
      env: sandboxEnv(await makeSandbox({ faults: faultsAt({ 0: FAULTS.tooManyRequests('1') }) })),
    });
    expect(waited).toMatchObject({ code: 0, stderr: '', sleeps: [1000] });
    const failed = await cdata(['tenders', '-q', '--tier', 'x'], { env: env() });
    expect(failed).toMatchObject({
      code: 2,
      stderr: "error: --tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH (got 'x')\n",
    });
    const forbidden = await cdata(['tenders', '-q', '--json'], { env: sandboxEnv(sandbox.current, 'graph') });
    expect(forbidden.code).toBe(4);
    expect(forbidden.stderr.split('\n')).toHaveLength(4);
  });
});

describe('an empty list is success', () => {
  const tenders = findEndpoint('tenders')!;
  const empty = async (argv: string[], options: { stdoutTTY?: boolean } = {}) =>
    cdata(['tenders', ...argv], {
      env: sandboxEnv(await makeSandbox({ faults: faultAlways(FAULTS.emptyList) })),
      ...options,
    });

  it('table: nothing on stdout, says so on stderr (a note: -q silences it)', async () => {
    expect(await empty([], { stdoutTTY: true })).toMatchObject({ code: 0, stdout: '', stderr: 'No tenders found.\n' });
    expect(await empty(['-q'], { stdoutTTY: true })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // A query's answer says it itself.
    expect(await empty(['--query', 'length(@)'], { stdoutTTY: true })).toMatchObject({
      code: 0,
      stdout: '0\n',
      stderr: '',
    });
  });

  it('json prints [], ndjson nothing', async () => {
    expect(await empty(['--json'])).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    expect(await empty(['-o', 'ndjson'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('csv and tsv print the header only', async () => {
    expect(await empty(['-o', 'csv'])).toMatchObject({
      code: 0,
      stdout: `${fieldNames(tenders).join(',')}\r\n`,
      stderr: '',
    });
    expect(await empty(['-o', 'tsv'])).toMatchObject({
      code: 0,
      stdout: `${fieldNames(tenders).join('\t')}\n`,
      stderr: '',
    });
  });
});

describe('a terminal that cannot move its cursor (TERM=dumb, or unset)', () => {
  it('gets no spinner for a slow answer: nothing is drawn in place', async () => {
    const slow = await makeSandbox({ latencyMs: 700 });
    const result = await cdata(['tenders', '-o', 'json'], {
      env: { ...sandboxEnv(slow), TERM: 'dumb' },
      stderrTTY: true,
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it('nor does one that does not say what it is (TERM unset)', async () => {
    const slow = await makeSandbox({ latencyMs: 700 });
    const result = await cdata(['tenders', '-o', 'json'], {
      env: { ...sandboxEnv(slow), TERM: undefined },
      stderrTTY: true,
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });
});
