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
      if (emptied && output.format === 'table') context.note("The query's result is an empty list.");
    },
  };
}
