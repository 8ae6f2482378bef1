// CSV: RFC 4180 quoting, numbers exactly as the API wrote them, formulas neutralised.
import { describe, expect, it } from 'vitest';
import { parseJson, type JsonObject } from '../../src/core/json.js';
import { renderCsv } from '../../src/output/csv.js';
import { parseStrictCsv } from '../helpers/cells.js';

const rows = (json: string) => parseJson(json) as JsonObject[];
const csv = (json: string, fields: string[], options = { header: false, bom: false }) =>
  renderCsv(rows(json), fields, options);

describe('renderCsv', () => {
  it('writes numbers with the digits the API sent, never as formulas', () => {
    const json = '[{"a":1250000.00,"b":-5,"c":-1250.50,"d":1e5,"e":12345678901234567890123,"f":0.10}]';
    expect(csv(json, ['a', 'b', 'c', 'd', 'e', 'f'])).toBe(
      '1250000.00,-5,-1250.50,1e5,12345678901234567890123,0.10\r\n',
    );
    expect(renderCsv([{ days: -5, score: 97 }], ['days', 'score'], { header: false, bom: false })).toBe('-5,97\r\n');
  });

  it('neutralises text that a spreadsheet would run', () => {
    const json = JSON.stringify([
      { a: '=SUM(A1:A9)', b: '+VAT', c: '-R 15', d: '@finance', e: '-5', f: '\uff1d1+1', g: 'fine = ok' },
    ]);
    expect(csv(json, ['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe(
      "'=SUM(A1:A9),'+VAT,'-R 15,'@finance,'-5,'\uff1d1+1,fine = ok\r\n",
    );
    const awkward = JSON.stringify([{ tab: '\tx', cr: '\rx' }]);
    expect(parseStrictCsv(csv(awkward, ['tab', 'cr']))).toEqual([["'\tx", "'\rx"]]);
  });

  it('quotes as RFC 4180 says, null is empty, arrays are joined with "; "', () => {
    const json = JSON.stringify([
      {
        q: 'Pay AfriSam, "cement, 42.5N"',
        n: null,
        l: 'Line one\nLine two',
        a: ['x', 'y, z'],
        f: ['=1', 'b'],
        t: true,
        u: '王氏建材',
      },
    ]);
    const text = csv(json, ['q', 'n', 'l', 'a', 'f', 't', 'u']);
    expect(text).toBe('"Pay AfriSam, ""cement, 42.5N""",,"Line one\nLine two","x; y, z",\'=1; b,true,王氏建材\r\n');
    expect(parseStrictCsv(text)).toEqual([
      ['Pay AfriSam, "cement, 42.5N"', '', 'Line one\nLine two', 'x; y, z', "'=1; b", 'true', '王氏建材'],
    ]);
  });

  it('a field the row lacks is empty', () => {
    expect(csv('[{"a":1}]', ['b', 'a'])).toBe(',1\r\n');
  });

  it('header row of field names; --bom first; nothing but the header for no rows', () => {
    expect(renderCsv([], ['id', 'name'], { header: true, bom: false })).toBe('id,name\r\n');
    expect(renderCsv([], ['id', 'name'], { header: true, bom: true })).toBe('\uFEFFid,name\r\n');
    expect(renderCsv(rows('[{"id":1,"name":"x"}]'), ['id', 'name'], { header: true, bom: false })).toBe(
      'id,name\r\n1,x\r\n',
    );
  });

  it('keeps each row its own numbers (lexemes never leak between rows)', () => {
    expect(csv('[{"a":1.50,"b":"x"},{"a":"=y","b":2.00}]', ['a', 'b'])).toBe("1.50,x\r\n'=y,2.00\r\n");
  });
});
