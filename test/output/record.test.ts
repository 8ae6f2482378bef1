// The record view: every field on its own line, values wrapped under themselves by display width,
// a text's own line breaks kept, array items one per line, sanitised as tables are.
import { stripVTControlCharacters } from 'node:util';
import cliTableUtils from 'cli-table3/src/utils.js';
import { describe, expect, it } from 'vitest';
import { fieldNames, findEndpoint } from '../../src/core/endpoints.js';
import { parseJson, type JsonObject } from '../../src/core/json.js';
import { recordFields, renderRecord } from '../../src/output/record.js';
import { wrap } from '../../src/output/width.js';
import { demoData } from '../../src/sandbox/data.js';
import { NOW } from '../helpers/api.js';

const visible = (line: string) => cliTableUtils.strlen(stripVTControlCharacters(line));

describe('wrap', () => {
  it('breaks at spaces, inside a word only when the word is wider than a line', () => {
    expect(wrap('the quick brown fox', 9)).toEqual(['the quick', 'brown fox']);
    expect(wrap('abcdefghij klm', 4)).toEqual(['abcd', 'efgh', 'ij', 'klm']);
    expect(wrap('', 10)).toEqual(['']);
    expect(wrap('a  b', 10)).toEqual(['a  b']);
  });

  it('measures by display width, keeping a character and its combining marks together', () => {
    expect(wrap('王氏建材王氏', 4)).toEqual(['王氏', '建材', '王氏']);
    expect(wrap('e\u0301e\u0301e\u0301', 2)).toEqual(['e\u0301e\u0301', 'e\u0301']);
  });

  it('is linear: a 200,000-character word and 50,000 words wrap at once', () => {
    // Not timed (quadratic, it took minutes: the test's time-out fails it).
    expect(wrap('x'.repeat(200_000), 80)).toEqual(Array.from({ length: 2500 }, () => 'x'.repeat(80)));
    expect(wrap('word '.repeat(50_000).trim(), 80)).toEqual([
      ...Array.from({ length: 3125 }, () => 'word '.repeat(16).trim()),
    ]);
  });
});

describe('renderRecord', () => {
  const tender = parseJson(
    '{"ocid":"ocds-1","title":"Installation of high-mast lighting in the central business district","tier":"RECOMMENDED","reasons":["CIDB 6EP required; the company holds 6EP","Buyer paid on time"],"briefingNote":"Site inspection:\\n2026-12-07 09:00","decision":null,"score":96}',
  ) as JsonObject;
  const fields = ['ocid', 'title', 'tier', 'reasons', 'briefingNote', 'decision', 'score'];

  it('one field per line, long text wrapped to the width under itself, array items one per line', () => {
    expect(renderRecord(tender, fields, { color: 0, width: 40 })).toBe(
      [
        'ocid          ocds-1',
        'title         Installation of high-mast',
        '              lighting in the central',
        '              business district',
        'tier          RECOMMENDED',
        'reasons       - CIDB 6EP required; the',
        '                company holds 6EP',
        '              - Buyer paid on time',
        'briefingNote  Site inspection:',
        '              2026-12-07 09:00',
        'decision',
        'score         96',
        '',
      ].join('\n'),
    );
  });

  it('unwrapped without a width; coloured labels and tones with colour', () => {
    const text = renderRecord(tender, ['title', 'tier'], { color: 1, width: undefined });
    expect(text).toBe(
      `\u001b[1mtitle\u001b[22m  ${tender.title}\n\u001b[1mtier\u001b[22m   \u001b[32m\u001b[1mRECOMMENDED\u001b[22m\u001b[39m\n`,
    );
  });

  it('a tender past due: its closesOn and runwayDays in red', () => {
    const past = { ocid: 'ocds-9t57fa-1', closesOn: '2026-11-17', runwayDays: -9 };
    expect(renderRecord(past, ['ocid', 'closesOn', 'runwayDays'], { color: 1, width: undefined })).toBe(
      '\u001b[1mocid\u001b[22m        ocds-9t57fa-1\n' +
        '\u001b[1mclosesOn\u001b[22m    \u001b[31m2026-11-17\u001b[39m\n' +
        '\u001b[1mrunwayDays\u001b[22m  \u001b[31m-9\u001b[39m\n',
    );
    const open = { ...past, runwayDays: 0 };
    expect(renderRecord(open, ['closesOn', 'runwayDays'], { color: 1, width: undefined })).not.toContain('\u001b[31m');
  });

  it('escapes control characters; a line break is the only one kept, as a line break', () => {
    const hostile = { note: 'a\u001b]8;;https://evil\u0007link\r\nnext\tline\u202e' };
    expect(renderRecord(hostile, ['note'], { color: 0, width: 80 })).toBe(
      'note  a\\x1b]8;;https://evil\\x07link\n      next\\tline\\u202e\n',
    );
  });

  it('every demo record fits 60 columns, and shows every field the view and the row hold', () => {
    const tenders = findEndpoint('tenders')!;
    const rows = demoData(NOW).rows.tenders;
    for (const row of rows) {
      for (const line of renderRecord(row, recordFields(fieldNames(tenders), row), { color: 0, width: 60 })
        .trimEnd()
        .split('\n')) {
        expect(visible(line)).toBeLessThanOrEqual(60);
      }
    }
    expect(recordFields(['a', 'b'], { b: 1, c: 2, a: 3 })).toEqual(['a', 'b', 'c']);
    // A field the answer leaves out is no line; one it sends as null is an empty one.
    expect(recordFields(['a', 'b', 'd'], { d: null, c: 2, a: 3 })).toEqual(['a', 'd', 'c']);
  });
});
