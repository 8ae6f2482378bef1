// "Did you mean …?" (src/core/similar.ts): the closest value within two edits, for every value
// cdata checks against a list (tiers, formats, lists, fields, settings, profiles).
import { describe, expect, it } from 'vitest';
import { closest, didYouMean, isSlipOf } from '../../src/core/similar.js';
import { run, tempConfigDir } from '../helpers/run.js';

describe('closest', () => {
  it('finds a typo within two edits, a swap counting as one, whatever the case or - and _', () => {
    expect(closest('tendres', ['tenders', 'agents'])).toEqual(['tenders']);
    expect(closest('RECOMENDED', ['RECOMMENDED', 'WORTH_A_LOOK', 'STRETCH'])).toEqual(['RECOMMENDED']);
    expect(closest('worth-a-lok', ['RECOMMENDED', 'WORTH_A_LOOK', 'STRETCH'])).toEqual(['WORTH_A_LOOK']);
    expect(closest('Defualt', ['default', 'prod'])).toEqual(['default']);
  });

  it('keeps every candidate at the fewest edits, and none past two edits or with few letters alike', () => {
    expect(closest('xsv', ['csv', 'tsv'])).toEqual(['csv', 'tsv']);
    expect(closest('nope', ['tenders', 'agents'])).toEqual([]);
    expect(closest('ab', ['cd', 'x'])).toEqual([]);
    expect(closest('titel', ['title', 'tier'])).toEqual(['title']);
  });

  it('says one, or one of several', () => {
    expect(didYouMean('jsn', ['json', 'ndjson'])).toBe('Did you mean json?');
    expect(didYouMean('xsv', ['csv', 'tsv'])).toBe('Did you mean one of csv, tsv?');
    expect(didYouMean('zzzz', ['csv'])).toBeUndefined();
  });
});

describe('isSlipOf', () => {
  it('a swap of neighbours, or one letter added or dropped', () => {
    expect(isSlipOf('prdo', 'prod')).toBe(true);
    expect(isSlipOf('rpod', 'prod')).toBe(true);
    expect(isSlipOf('prodd', 'prod')).toBe(true);
    expect(isSlipOf('stagin', 'staging')).toBe(true);
    expect(isSlipOf('sstaging', 'staging')).toBe(true);
  });

  it('not a name of its own: a letter or digit changed, a digit added, two slips, the same name, a short one', () => {
    expect(isSlipOf('client-b', 'client-a')).toBe(false);
    expect(isSlipOf('client-2', 'client-1')).toBe(false);
    expect(isSlipOf('acme-uk', 'acme-za')).toBe(false);
    expect(isSlipOf('prod2', 'prod')).toBe(false);
    expect(isSlipOf('client-10', 'client-1')).toBe(false);
    expect(isSlipOf('pdro', 'prod')).toBe(false);
    expect(isSlipOf('prdoo', 'prod')).toBe(false);
    expect(isSlipOf('prod', 'prod')).toBe(false);
    expect(isSlipOf('ab', 'a')).toBe(false);
  });
});

describe('at the command line: exit 2, the error as before, the nearest value as the hint', () => {
  it.each([
    [
      ['tenders', '--tier', 'recomended'],
      "error: --tier must be one of RECOMMENDED, WORTH_A_LOOK, STRETCH (got 'recomended')\nhint: Did you mean RECOMMENDED?\n",
    ],
    [
      ['tenders', '-o', 'jsn'],
      "error: --output must be one of table, json, ndjson, csv, tsv (got 'jsn')\nhint: Did you mean json?\n",
    ],
    [
      ['config', 'get', 'pagr'],
      'error: unknown setting "pagr": use one of base-url, output, timeout, key-command, pager\nhint: Did you mean pager?\n',
    ],
    [
      ['--sandbox', 'tenders', '--fields', 'ocid,titel'],
      "error: unknown field 'titel' in --fields for tenders; valid fields: ocid, title, buyer, province, closesOn, runwayDays, score, tier, reasons, briefingNote, decision, analysisRunId, docCount\nhint: Did you mean title?\n",
    ],
  ])('%j', async (argv, stderr) => {
    expect(await run(argv, { env: { CDATA_CONFIG_DIR: tempConfigDir() } })).toMatchObject({
      code: 2,
      stdout: '',
      stderr,
    });
  });
});
