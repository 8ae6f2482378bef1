// --query: a JMESPath expression (the Community Edition grammar, @jmespath-community/jmespath)
// over the API's JSON, before formatting. Compiled before any request is sent: a syntax error, an
// unknown function or an expression nested past the cap costs no request. This module, and the
// library with it, loads only when a command is given --query. The built cdata evaluates it in a
// worker thread (./thread.ts: Ctrl-C ends it at once, its memory has a cap); from the sources, on
// this thread (./evaluate.ts: the same caps on the result).
import { compile, isRegistered, tokenize } from '@jmespath-community/jmespath';
import type { View } from '../../core/endpoints.js';
import { UsageError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json-value.js';
import { parseJson } from '../../core/json.js';
import { evaluate, MAX_RESULT_DEPTH, MAX_RESULT_VALUES, type Evaluated } from './evaluate.js';
import { bareNumber, errorOffset, syntaxMessage, unclosedQuote } from './syntax.js';
import { resultView } from './view.js';

type Expression = ReturnType<typeof compile>;

/** Set by the build (scripts/build.mjs) in dist/, beside dist/query.cjs (the worker's file). */
declare const __CDATA_QUERY_WORKER__: boolean;

/**
 * The deepest nesting of an expression's syntax tree (`a.b.c` is three levels, `@[]` two):
 * evaluating it recurses as deep. An expression typed at a prompt has a few levels.
 */
export const MAX_EXPRESSION_DEPTH = 256;

export interface Query {
  /** The result over `data` (once per query): the answer's records and numbers as the API wrote them where they pass through. */
  run(data: JsonValue): Promise<QueryResult>;
  /** How `result` prints where `base` is the command's view. */
  view(result: Pick<QueryResult, 'value' | 'records'>, base: View): View;
}

export interface QueryResult {
  value: JsonValue;
  /** One of the answer's records, or a non-empty list of them. */
  records: boolean;
  /**
   * Names no row has that a filter of the rows compares (`[?tier == RECOMMENDED]`: RECOMMENDED),
   * where that filter kept no row: null there, which empties a list without a word.
   */
  emptiedBy: readonly string[];
}

const SHELL_HINT =
  'Put the expression in single quotes: in double quotes a shell runs what is between backticks. JMESPath: docs/query.md.';

/**
 * The hint for a syntax error: quoting, unless the expression holds a backtick, which a shell
 * would have taken (so it was quoted so as to keep them).
 */
const syntaxHint = (expression: string) => (expression.includes('`') ? 'JMESPath: docs/query.md.' : SHELL_HINT);

export async function compileQuery(expression: string): Promise<Query> {
  if (expression.trim() === '')
    throw new UsageError('--query needs an expression, e.g. --query \'[?tier == `"RECOMMENDED"`].title\'');
  const unclosed = unclosedQuote(expression);
  if (unclosed !== undefined)
    throw new UsageError(
      `--query is not a valid JMESPath expression at column ${unclosed + 1}: the ${expression[unclosed]} opened here is never closed`,
      { hint: syntaxHint(expression), excerpt: (await import('./caret.js')).caretLines(expression, unclosed) },
    );
  let ast: Expression;
  try {
    ast = compile(expression);
  } catch (error) {
    // The parser recurses for each nested ( [ { or function call: past the stack, it is too deep.
    if (error instanceof RangeError) throw tooDeep();
    throw await syntaxError(expression, error);
  }
  if (depthOf(ast) > MAX_EXPRESSION_DEPTH) throw tooDeep();
  if (strayBinding(ast)) throw await singleEquals(expression, strayEquals(expression));
  const unknown = functionNames(ast).find((name) => !isRegistered(name));
  if (unknown !== undefined)
    throw new UsageError(`--query: unknown function ${unknown}()`, {
      hint: 'The functions are listed in docs/query.md.',
    });
  // Started now, it loads while the request is under way.
  const worker =
    typeof __CDATA_QUERY_WORKER__ !== 'undefined'
      ? (await import('./thread.js')).startQueryWorker(expression)
      : undefined;
  return {
    async run(data) {
      const evaluated: Evaluated = worker ? await worker.evaluate(data) : evaluate(ast, data);
      // Measured already (evaluate.ts): within these caps.
      return {
        value: parseJson(evaluated.json, { maxDepth: MAX_RESULT_DEPTH, maxValues: MAX_RESULT_VALUES }),
        records: evaluated.records,
        emptiedBy: evaluated.emptiedBy,
      };
    },
    view(result, base) {
      return resultView(result.value, base, () => result.records, ast);
    },
  };
}

function tooDeep(): UsageError {
  return new UsageError(
    `--query is nested too deeply: more than ${MAX_EXPRESSION_DEPTH} levels (docs/limits.md#a---query-expression)`,
    {
      hint: 'A long chain of . | [] or nested brackets; name a part with let, or split the query across two runs.',
    },
  );
}

/** The syntax tree's depth, counted without recursion (the tree may be thousands of levels deep). */
function depthOf(ast: Expression): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[ast, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_EXPRESSION_DEPTH) break;
    for (const child of Object.values(node as object)) {
      if (Array.isArray(child))
        for (const item of child as unknown[])
          if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
      if (typeof child === 'object' && child !== null && !Array.isArray(child)) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

async function syntaxError(expression: string, error: unknown): Promise<UsageError> {
  const offset = errorOffset(expression);
  // A `=` mistyped for `==` before where the parse failed (`[?x = 1]`): that is the mistake to mend.
  const equals = strayEquals(expression);
  if (equals !== undefined && (offset === undefined || equals < offset)) return singleEquals(expression, equals);
  const where = offset === undefined ? '' : ` at column ${offset + 1}`;
  // After a dot it is a field's name (`a."80"`), not a value.
  const number = expression.slice(0, offset).trimEnd().endsWith('.') ? undefined : bareNumber(error);
  const date = number === undefined || offset === undefined ? undefined : bareDate(expression.slice(offset));
  return new UsageError(`--query is not a valid JMESPath expression${where}: ${syntaxMessage(error)}`, {
    hint: date !== undefined ? dateHint(date) : number === undefined ? syntaxHint(expression) : numberHint(number),
    ...(offset === undefined ? {} : { excerpt: (await import('./caret.js')).caretLines(expression, offset) }),
  });
}

/**
 * Whether a `=` binds outside `let … in`. The library parses `[?status = 'OPEN']` as a binding
 * wherever it stands, and a binding is true: the filter keeps every row. JMESPath (and
 * python-jmespath) refuse it; it is `==` mistyped.
 */
function strayBinding(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  const { type, bindings, expression } = node as {
    type?: unknown;
    bindings?: { reference?: unknown }[];
    expression?: unknown;
  };
  if (type === 'Binding') return true;
  if (type === 'LetExpression')
    return (bindings ?? []).some((binding) => strayBinding(binding.reference)) || strayBinding(expression);
  if (type === 'Literal') return false;
  return Object.values(node).some((value: unknown) =>
    Array.isArray(value) ? value.some(strayBinding) : strayBinding(value),
  );
}

/** Where the first `=` is that is no `let $name =` (nor `, $name =` after it); undefined if none, or the text cannot be read as tokens. */
function strayEquals(expression: string): number | undefined {
  let tokens: ReturnType<typeof tokenize>;
  try {
    tokens = tokenize(expression);
  } catch {
    return undefined;
  }
  const binds = (i: number) =>
    tokens[i - 1]?.type === 'Variable' &&
    (tokens[i - 2]?.type === 'Comma' ||
      (tokens[i - 2]?.type === 'UnquotedIdentifier' && tokens[i - 2]?.value === 'let'));
  return tokens.find((token, i) => token.type === 'Assign' && !binds(i))?.start;
}

/** The error for a stray `=` (at `at`: strayEquals), the caret under it. */
async function singleEquals(expression: string, at: number | undefined): Promise<UsageError> {
  return new UsageError(
    `--query is not a valid JMESPath expression${at === undefined ? '' : ` at column ${at + 1}`}: a single = is not a comparison`,
    {
      hint: 'To compare, write == (a single = names a variable: let $name = … in …). JMESPath: docs/query.md.',
      ...(at === undefined ? {} : { excerpt: (await import('./caret.js')).caretLines(expression, at) }),
    },
  );
}

/**
 * A date written bare where a value goes (`[?dueOn < 2026-12-01]`, `27/11/2026`), in the API's
 * form (YYYY-MM-DD, with its time where one was written: `2026-12-01T10:00:00Z`), or
 * 'YYYY-MM-DD' when its day and month could be either, or are no date at all.
 */
function bareDate(text: string): string | undefined {
  const two = (n: string) => n.padStart(2, '0');
  const day = (year: string, month: string, date: string) =>
    Number(month) >= 1 && Number(month) <= 12 && Number(date) >= 1 && Number(date) <= 31
      ? `${year}-${two(month)}-${two(date)}`
      : 'YYYY-MM-DD';
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(T[\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?(?![\w/-])/.exec(text);
  if (iso) {
    const date = day(iso[1]!, iso[2]!, iso[3]!);
    return iso[4] === undefined || date === 'YYYY-MM-DD' ? date : `${date}${iso[4]}`;
  }
  const local = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?![\d/.-])/.exec(text);
  if (!local) return undefined;
  const [, first, second, year] = local as unknown as [string, string, string, string];
  if (Number(first) > 12) return day(year, second, first);
  if (Number(second) > 12) return day(year, first, second);
  return 'YYYY-MM-DD';
}

/** For `[?dueOn < 2026-12-01]`: the API's dates are text, compared as text in the API's form. */
function dateHint(date: string): string {
  return `A date is text in JMESPath, written as the API writes dates: \`"${date}"\`. ${SHELL_HINT}`;
}

/** For `[?score > 80]`: JMESPath's numbers are JSON literals, and backticks need single quotes. */
function numberHint(number: string): string {
  return `A number is a JSON literal in JMESPath, between backticks: \`${number}\`. ${SHELL_HINT}`;
}

/** Every function the expression calls, in order (a literal's JSON is data, not calls). */
function functionNames(node: unknown): string[] {
  if (typeof node !== 'object' || node === null || (node as { type?: unknown }).type === 'Literal') return [];
  const children = Object.values(node).flatMap((value: unknown) =>
    Array.isArray(value) ? value.flatMap(functionNames) : functionNames(value),
  );
  const self = (node as { type?: unknown }).type === 'Function' ? [(node as { name: string }).name] : [];
  return [...self, ...children];
}
