// --query for a command that prints the API's data: the expression is compiled before any
// request (a syntax error sends none), and what it makes of the data prints in every format with
// a view made from the result itself (src/output/query/). Without --query the command's own
// output is returned untouched, and the JMESPath library never loads.
import type { View } from '../../core/endpoints.js';
import type { JsonValue } from '../../core/json-value.js';
import type { Output } from '../../output/print.js';
import type { CommandContext } from '../../command-kit/command.js';

export async function queryOutput(
  context: Pick<CommandContext, 'output' | 'note'>,
  view: View,
  expression: string | undefined,
): Promise<Output> {
  if (expression === undefined) return context.output(view);
  const query = await (await import('../../output/query/compile.js')).compileQuery(expression);
  let records = false;
  const output = context.output((result) => query.view({ value: result, records }, view));
  return {
    format: output.format,
    async print(answer: JsonValue) {
      const result = await query.run(answer);
      records = result.records;
      await output.print(result.value);
      const emptied =
        Array.isArray(result.value) && result.value.length === 0 && !(Array.isArray(answer) && answer.length === 0);
      // A name no row has compares as null: the likeliest reason for a filter that kept no row,
      // in any format, whether its empty list is the result or went into a count or a sort.
      const [missing] = result.emptiedBy;
      if (missing !== undefined) context.note(noSuchField(missing, emptied));
      else if (emptied && output.format === 'table') context.note("The query's result is an empty list.");
    },
  };
}

/**
 * Why `[?tier == RECOMMENDED]` kept no row: RECOMMENDED is a field's name there, and no row has
 * it. `emptied`: the result itself is that empty list (else the filter's list went into more).
 */
function noSuchField(name: string, emptied: boolean): string {
  const what = emptied ? "The query's result is an empty list" : 'A filter in the query kept no row';
  const said = `${what}: no row has a field named ${name}, which compares as null.`;
  // An enum's value (RECOMMENDED, OPEN): text, which JMESPath writes in quotes.
  if (/^[A-Z][A-Z0-9_]*$/.test(name)) return `${said} As text it is \`"${name}"\`.`;
  // Not a bare name, so it was in double quotes ("2026-12-01", as the AWS CLI's users write text).
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return `${said} In double quotes it is a field's name; as text it is '${name.replaceAll("'", "\\'")}'.`;
  return said;
}
