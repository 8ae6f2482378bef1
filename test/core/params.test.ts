// The API's query parameters as a user sets them: --limit (clamped, with a note), --tier (any
// case, - for _), --decided / --undecided, their lines in --help, the query each sends, and the
// column a table leaves out because the filter makes it the same in every row.
import { describe, expect, it } from 'vitest';
import { parseValues, type OptionSpec, type RawOption } from '../../src/core/option.js';
import {
  clampNote,
  DECIDED_PARAM,
  fixedField,
  limitDescription,
  limitParam,
  PARAM_OPTIONS,
  paramQuery,
  parseLimit,
  parseTier,
  TIER_PARAM,
} from '../../src/core/params.js';
import { cdata } from '../helpers/checked.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const api = useSandbox();

describe('--limit', () => {
  it('a whole number, signs and padding allowed; in range as it is', () => {
    expect(parseLimit('1')).toEqual({ value: 1 });
    expect(parseLimit('200')).toEqual({ value: 200 });
    expect(parseLimit(' +50\t')).toEqual({ value: 50 });
  });

  it('outside 1..200: clamped, remembering what was typed (trimmed) for the note', () => {
    expect(parseLimit(' 0 ')).toEqual({ value: 1, clampedFrom: '0' });
    expect(parseLimit('-3')).toEqual({ value: 1, clampedFrom: '-3' });
    expect(parseLimit('201')).toEqual({ value: 200, clampedFrom: '201' });
    expect(parseLimit('99999999999999999999999')).toEqual({ value: 200, clampedFrom: '99999999999999999999999' });
  });

  it('anything else: a usage error quoting it as typed', () => {
    for (const raw of ['', '1.5', '1e3', 'ten', '12abc', 'abc12', '+-1', '0x10', '1 2']) {
      expect(() => parseLimit(raw)).toThrow(
        expect.objectContaining({
          name: 'UsageError',
          message: `--limit must be a whole number from 1 to 200 (got '${raw}')`,
        }),
      );
    }
    expect(() => parseLimit('x', '--page-size')).toThrow(
      expect.objectContaining({ message: "--page-size must be a whole number from 1 to 200 (got 'x')" }),
    );
  });

  it('the note, only for a clamped value', () => {
    expect(clampNote(parseLimit('500'))).toBe(
      '--limit 500 is more than the API returns, so cdata asks for 200, the most.',
    );
    expect(clampNote(parseLimit('0'), '--page-size')).toBe('--page-size 0 is less than 1, so cdata asks for 1.');
    expect(clampNote(parseLimit('-3'))).toBe('--limit -3 is less than 1, so cdata asks for 1.');
    expect(clampNote(parseLimit('200'))).toBeUndefined();
  });

  it('its help line says which rows come first, newest unless the list is ordered by tier', () => {
    expect(limitDescription('newest')).toBe('rows to return, newest first (1 to 200; others are clamped)');
    expect(limitDescription('best')).toBe('rows to return, best tier first (1 to 200; others are clamped)');
    expect(PARAM_OPTIONS.limit.description).toBe('rows to return, newest first (1 to 200; others are clamped)');
  });
});

describe('--tier', () => {
  it('any ASCII case, - for _, padding ignored', () => {
    expect(parseTier('recommended')).toBe('RECOMMENDED');
    expect(parseTier(' worth-a-look ')).toBe('WORTH_A_LOOK');
    expect(parseTier('Stretch')).toBe('STRETCH');
    expect(parseTier('WORTH_A_LOOK')).toBe('WORTH_A_LOOK');
  });

  it('no other tier, nor a look-alike that toUpperCase() would turn into one', () => {
    for (const raw of ['ſtretch', 'ﬆretch', 'best', '', 'worth a look']) {
      expect(() => parseTier(raw)).toThrow(
        expect.objectContaining({
          name: 'UsageError',
          message: `--tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH (got '${raw}')`,
        }),
      );
    }
  });
});

describe('the query each parameter sends', () => {
  const limit = limitParam(50);

  it('limit: the number, when given or by default', () => {
    expect(paramQuery([limit], { limit: { value: 7 } })).toEqual({ limit: '7' });
    expect(paramQuery([limit], {})).toEqual({});
  });

  it('tier and decided, only when set', () => {
    const params = [TIER_PARAM, DECIDED_PARAM, limit];
    expect(paramQuery(params, { tier: 'STRETCH', decided: true, limit: { value: 100, byDefault: true } })).toEqual({
      tier: 'STRETCH',
      decided: 'true',
      limit: '100',
    });
    expect(paramQuery(params, { undecided: true })).toEqual({ decided: 'false' });
    expect(paramQuery(params, { decided: false, undecided: false })).toEqual({});
  });

  it('both decided flags together: a usage error while the options parse, either order', () => {
    const parse = (given: ReadonlySet<OptionSpec<unknown>>) =>
      parseValues(PARAM_OPTIONS, (option): RawOption => (given.has(option) ? true : undefined));
    expect(() => parse(new Set([PARAM_OPTIONS.decided, PARAM_OPTIONS.undecided]))).toThrow(
      expect.objectContaining({ name: 'UsageError', message: '--decided and --undecided cannot be used together' }),
    );
    expect(parse(new Set([PARAM_OPTIONS.undecided]))).toMatchObject({ decided: false, undecided: true });
    expect(parse(new Set([PARAM_OPTIONS.decided]))).toMatchObject({ decided: true, undecided: false });
  });

  it('the column a filter makes the same in every row: tier under --tier, decision under --undecided only', () => {
    expect(fixedField(TIER_PARAM, { tier: 'STRETCH' })).toBe('tier');
    expect(fixedField(TIER_PARAM, {})).toBeUndefined();
    expect(fixedField(DECIDED_PARAM, { undecided: true })).toBe('decision');
    expect(fixedField(DECIDED_PARAM, { decided: true })).toBeUndefined();
    expect(fixedField(DECIDED_PARAM, {})).toBeUndefined();
    expect(fixedField(limit, { limit: { value: 3 } })).toBeUndefined();
  });
});

describe('on the command line', () => {
  it('--help lists each option with its values and default', async () => {
    const help = (await cdata(['tenders', '--help'])).stdout;
    expect(help).toContain(
      [
        '  --tier <tier>          only this tier: RECOMMENDED, WORTH_A_LOOK, STRETCH (any',
        '                         case; - for _)',
        '  --decided              only tenders a person has decided on',
        '  --undecided            only tenders nobody has decided on yet',
        '  -l, --limit <n>        rows to return, best tier first (1 to 200; others are',
        '                         clamped) (default: 100)',
      ].join('\n'),
    );
  });

  it('--help says --limit does not apply to a lookup by key; TAB offers the tiers', async () => {
    expect((await cdata(['tenders', '--help'])).stdout).toContain(
      [
        'With KEY, one record in full: cdata asks for the 200 rows the API returns, after',
        '--tier, --decided, --undecided (which narrow the search), and shows the one',
        'whose ocid is KEY or, for 6 or more characters, starts with it. --limit does not',
        'apply. --query sees the one record. Not found: exit 8.',
      ].join('\n'),
    );
    expect((await cdata(['completion', 'bash'])).stdout).toContain(
      "'tenders --tier') echo 'values RECOMMENDED WORTH_A_LOOK STRETCH'; return ;;",
    );
  });

  it('a lookup by key takes no typed --limit, and needs none', async () => {
    const env = sandboxEnv(api.current);
    const found = await cdata(['tenders', 'ocds-9t57fa-140905', '-o', 'json'], { env });
    expect(found).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(found.stdout)).toMatchObject({ ocid: 'ocds-9t57fa-140905' });
    const typed = await cdata(['tenders', 'ocds-9t57fa-140905', '--limit', '5'], { env });
    expect(typed).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: --limit does not apply to a lookup by ocid: cdata looks among the 200 rows the API returns, the most it can\n',
    });
  });

  it('tenders sends what the options say, with the note for a clamped --limit', async () => {
    const target = api.current;
    const before = target.requests.length;
    const result = await cdata(['tenders', '--limit', ' 0 ', '--tier', 'worth-a-look', '--undecided', '-o', 'json'], {
      env: sandboxEnv(target),
    });
    expect(result).toMatchObject({ code: 0, stderr: '--limit 0 is less than 1, so cdata asks for 1.\n' });
    expect(target.requests.slice(before).map((request) => Object.fromEntries(request.query))).toEqual([
      { tier: 'WORTH_A_LOOK', decided: 'false', limit: '1' },
    ]);
    const unclamped = await cdata(['tenders', '-o', 'json'], { env: sandboxEnv(target) });
    expect(unclamped).toMatchObject({ code: 0, stderr: '' });
    expect(Object.fromEntries(target.requests.at(-1)!.query)).toEqual({ limit: '100' });
  });
});
