// Which global options apply to a command, read from what the command declares: help lists only
// these under "Global Options" (docs/help.md). Every global option is still accepted anywhere
// (before or after the command) and its value checked (src/program.ts, checkGlobals); one that
// does not apply is ignored, or refused where it would mislead (--out, --fields, --sandbox). One
// that applies to the command but not to the format it prints (--bom in tsv) is said in a warning.
import type { AnyCommand } from './command.js';
import { HEADED_FORMATS, type GLOBAL_OPTIONS } from './globals.js';

type GlobalName = keyof typeof GLOBAL_OPTIONS;

const printsData = (spec: AnyCommand) => spec.view !== undefined;
const takesFormat = (spec: AnyCommand, formats: readonly string[]) =>
  printsData(spec) || (spec.formats ?? []).some((f) => formats.includes(f));
const callsApi = (spec: AnyCommand) => spec.usesApi === true;

/** A global option without a rule here (-q, and any added later until given one) applies to every command. */
const RULES: Partial<Record<GlobalName, (spec: AnyCommand) => boolean>> = {
  profile: (spec) => callsApi(spec) || spec.usesProfile === true,
  baseUrl: callsApi,
  timeout: callsApi,
  retries: callsApi,
  maxWait: callsApi,
  debug: callsApi,
  sandbox: (spec) => callsApi(spec) && spec.refusesSandbox === undefined,
  output: (spec) => printsData(spec) || spec.formats !== undefined,
  json: (spec) => takesFormat(spec, ['json']),
  fields: printsData,
  color: printsData,
  header: (spec) => takesFormat(spec, HEADED_FORMATS),
  bom: (spec) => takesFormat(spec, ['csv']),
  out: (spec) => spec.writesOutput === true,
  // The pager takes data printed at a terminal.
  pager: printsData,
};

/** Whether the global option `name` (its attribute name: baseUrl, header) applies to `spec`, a command that runs. */
export function globalApplies(name: string, spec: AnyCommand): boolean {
  const rule = RULES[name as GlobalName];
  return rule === undefined ? true : rule(spec);
}

/**
 * What --bom and --no-header, when given, would do for output in `format`: a warning for each that
 * does nothing there (`cdata sites --bom > sites.csv` writes tsv, the format of a pipe).
 */
export function formatIgnores(format: string, flags: { header: boolean; bom: boolean }): string[] {
  return [
    ...(flags.bom && format !== 'csv'
      ? [`--bom does nothing for ${format} output: only csv starts with a byte order mark`]
      : []),
    ...(!flags.header && !HEADED_FORMATS.includes(format)
      ? [`--no-header does nothing for ${format} output: it has no header row`]
      : []),
  ];
}
