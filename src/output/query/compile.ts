// --query: a JMESPath expression (the Community Edition grammar, @jmespath-community/jmespath)
// over the API's JSON, before formatting. Compiled before any request is sent: a syntax error or
// an unknown function costs no request. This module, and the library with it, loads only when a
// command is given --query.
import { compile, isRegistered, TreeInterpreter } from '@jmespath-community/jmespath';
import type { View } from '../../core/endpoints.js';
import { UsageError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json-value.js';
import { queryInput } from './numbers.js';
import { adjustRuntime, QueryFunctionError } from './runtime.js';
import { errorOffset, syntaxMessage } from './syntax.js';
import { resultView } from './view.js';

type Expression = ReturnType<typeof compile>;

export interface Query {
  /** The result over `data`: the answer's records and numbers as the API wrote them where they pass through. */
  run(data: JsonValue): JsonValue;
  /** How `result`, which the query made of `data`, prints where `base` is the command's view. */
  view(result: JsonValue, data: JsonValue, base: View): View;
}

const SHELL_HINT = "Put the expression in single quotes: in double quotes a shell runs what is between backticks. JMESPath: docs/query.md.";

export async function compileQuery(expression: string): Promise<Query> {
  if (expression.trim() === '') throw new UsageError('--query needs an expression, e.g. --query \'[?tier == `"RECOMMENDED"`].title\'');
  let ast: Expression;
  try {
    ast = compile(expression);
  } catch (error) {
    throw await syntaxError(expression, error);
  }
  const unknown = functionNames(ast).find((name) => !isRegistered(name));
  if (unknown !== undefined) throw new UsageError(`--query: unknown function ${unknown}()`, { hint: 'The functions are listed in docs/query.md.' });
  return {
    run(data) {
      adjustRuntime();
      const input = queryInput(data);
      try {
        return input.restore(TreeInterpreter.search(ast, input.value));
      } catch (error) {
        throw runtimeError(error);
      }
    },
    view(result, data, base) {
      const records = new Set<JsonValue>(Array.isArray(data) ? data : [data]);
      return resultView(result, base, (value) => records.has(value), ast);
    },
  };
}

async function syntaxError(expression: string, error: unknown): Promise<UsageError> {
  const offset = errorOffset(expression);
  const where = offset === undefined ? '' : ` at column ${offset + 1}`;
  return new UsageError(`--query is not a valid JMESPath expression${where}: ${syntaxMessage(error)}`, {
    hint: SHELL_HINT,
    ...(offset === undefined ? {} : { excerpt: (await import('./caret.js')).caretLines(expression, offset) }),
  });
}

function runtimeError(error: unknown): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  // A field some records leave null (runwayDays, province) is the usual cause of a type error.
  const hint = /received (?:type )?null|^not-a-number: undefined/.test(message) ? { hint: 'Some records hold null there: leave them out first ([?field != null]) or give a default (field || `0`).' } : {};
  if (error instanceof QueryFunctionError) {
    // The library's words, less what the message now says first: "Invalid type: abs() expected…".
    const detail = message.replace(/^Invalid (?:type|arity): /, '').replace(`${error.functionName}() `, '');
    return new UsageError(`--query failed in ${error.functionName}(): ${detail}`, { cause: error, ...hint });
  }
  // Arithmetic on what is not a number, or a $variable no `let` defines.
  const arithmetic = /^not-a-number(: divide by zero)?/.exec(message);
  if (arithmetic) return new UsageError(`--query failed: ${arithmetic[1] ? 'division by zero' : 'arithmetic (+ - * / % //) needs numbers on both sides'}`, { cause: error, ...hint });
  const variable = /^Error referencing undefined variable (\S+)/.exec(message);
  if (variable) return new UsageError(`--query failed: no variable $${variable[1]} is defined (let $${variable[1]} = … in …)`, { cause: error });
  return new UsageError(`--query failed: ${message}`, { cause: error, ...hint });
}

/** Every function the expression calls, in order (a literal's JSON is data, not calls). */
function functionNames(node: unknown): string[] {
  if (typeof node !== 'object' || node === null || (node as { type?: unknown }).type === 'Literal') return [];
  const children = Object.values(node).flatMap((value: unknown) => (Array.isArray(value) ? value.flatMap(functionNames) : functionNames(value)));
  const self = (node as { type?: unknown }).type === 'Function' ? [(node as { name: string }).name] : [];
  return [...self, ...children];
}
