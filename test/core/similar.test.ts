// "Did you mean …?" (src/core/similar.ts): the closest value within two edits, for every value
// cdata checks against a list (tiers, formats, lists, fields, settings, profiles).
import { describe, expect, it } from 'vitest';
import { closest, didYouMean } from '../../src/core/similar.js';
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
