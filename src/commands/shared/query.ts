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
      if (!emptied) return;
      // A name no row has compares as null: the likeliest reason for the empty list, in any format.
      const rows = Array.isArray(answer) ? answer : [];
      const missing = query.comparedFields.find(
        (name) => !rows.some((row) => typeof row === 'object' && row !== null && Object.hasOwn(row, name)),
      );
      if (missing !== undefined) context.note(noSuchField(missing));
      else if (output.format === 'table') context.note("The query's result is an empty list.");
    },
  };
}

/** Why `[?tier == RECOMMENDED]` is empty: RECOMMENDED is a field's name there, and no row has it. */
function noSuchField(name: string): string {
  const said = `The query's result is an empty list: no row has a field named ${name}, which compares as null.`;
  // An enum's value (RECOMMENDED, OPEN): text, which JMESPath writes in quotes.
  if (/^[A-Z][A-Z0-9_]*$/.test(name)) return `${said} As text it is \`"${name}"\`.`;
  // Not a bare name, so it was in double quotes ("2026-12-01", as the AWS CLI's users write text).
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return `${said} In double quotes it is a field's name; as text it is '${name.replaceAll("'", "\\'")}'.`;
  return said;
}
