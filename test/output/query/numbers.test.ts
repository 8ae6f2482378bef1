// Exact numbers through a query: the query computes with doubles, and the result gets the API's
// own text back where it passes a number through (src/output/query/numbers.ts).
import { describe, expect, it } from 'vitest';
import { TreeInterpreter, compile } from '@jmespath-community/jmespath';
import { isJsonNumber, parseJson, stringifyJson } from '../../../src/core/json.js';
import { queryInput } from '../../../src/output/query/numbers.js';

/** The query's result over this JSON text, as cdata prints it in JSON. */
function run(json: string, expression: string): string {
  const input = queryInput(parseJson(json));
  return stringifyJson(input.restore(TreeInterpreter.search(compile(expression), input.value)));
}

const ANSWER =
  '[{"id":12345678901234567890,"amount":1250000.00,"rate":0.10,"n":3},{"id":2,"amount":-1250.50,"rate":1.5,"n":4}]';

describe('numbers through a query', () => {
  it('the query sees doubles: comparisons and arithmetic work on numbers kept as text', () => {
    expect(run(ANSWER, '[?amount > `1000000`].n')).toBe('[3]');
    expect(run(ANSWER, 'sum([].n)')).toBe('7');
    expect(run(ANSWER, '[0].amount * `2`')).toBe('2500000');
  });

  it("a record that comes out whole is the answer's own, every number as written", () => {
    expect(run(ANSWER, '[?n == `3`]')).toBe('[{"id":12345678901234567890,"amount":1250000.00,"rate":0.10,"n":3}]');
    expect(run(ANSWER, 'sort_by(@, &n)[0]')).toBe('{"id":12345678901234567890,"amount":1250000.00,"rate":0.10,"n":3}');
  });

  it('a number on its own prints as written when the answer writes that value one way only', () => {
    expect(run(ANSWER, '[].{id: id, amount: amount}')).toBe(
      '[{"id":12345678901234567890,"amount":1250000.00},{"id":2,"amount":-1250.50}]',
    );
    expect(run(ANSWER, 'max([].amount)')).toBe('1250000.00');
  });

  it('a double that stands for two different numbers of the answer is exit 2, never rounded or null', () => {
    const twins = '[{"id":12345678901234567890,"x":1e400},{"id":12345678901234567891,"x":2e400},{"id":1,"x":1}]';
    expect(() => run(twins, '[].id')).toThrow(
      "--query: the result holds a number that stands for several of the answer's (12345678901234567890 and 12345678901234567891, which a double cannot tell apart)",
    );
    expect(() => run(twins, '[].{x: x}')).toThrow('(1e400 and 2e400, which a double cannot tell apart)');
    // The records whole, and the numbers no twin shares, are exact as ever.
    expect(run(twins, '[?x == `1`].id')).toBe('[1]');
    expect(run(twins, '[0:2]')).toBe('[{"id":12345678901234567890,"x":1e400},{"id":12345678901234567891,"x":2e400}]');
    // One number past a double's range, written once, is told back.
    expect(run('[{"x":1e400},{"x":1}]', '[].x')).toBe('[1e400,1]');
  });

  it('a value the answer writes two ways prints in its shortest form', () => {
    // 0.10 and 0.1 are the same double: which one a result's 0.1 came from is unknown.
    expect(run('[{"a":0.10},{"a":0.1}]', '[].a')).toBe('[0.1,0.1]');
    // Whole records still keep their own text.
    expect(run('[{"a":0.10},{"a":0.1}]', '[?a]')).toBe('[{"a":0.10},{"a":0.1}]');
    // Two ids a double cannot tell apart keep their own digits inside their records (alone: exit 2, above).
    expect(run('[{"id":12345678901234567890},{"id":12345678901234567891}]', '[1]')).toBe('{"id":12345678901234567891}');
  });

  it('a computed value equal to a number of the answer prints as that number does', () => {
    expect(run(ANSWER, '[0].amount + `0`')).toBe('1250000.00');
    expect(run(ANSWER, '[0].amount + `0.01`')).toBe('1250000.01');
  });

  it('restored numbers are exact numbers again (CSV and tables print their text)', () => {
    const input = queryInput(parseJson(ANSWER));
    const [amount] = input.restore(TreeInterpreter.search(compile('[].amount'), input.value)) as unknown[];
    expect(isJsonNumber(amount)).toBe(true);
  });

  it('JavaScript names are not fields: objects the query reads have no prototype', () => {
    expect(run('{"a":1}', '[constructor, toString, __proto__]')).toBe('[null,null,null]');
    expect(run('{"__proto__":{"x":1}}', '__proto__.x')).toBe('1');
  });
});
