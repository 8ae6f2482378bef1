// What main (src/cli.ts) learns while a command runs, shared with the program that runs it and
// the reporter that says how it failed.
export interface RunState {
  jsonErrors: boolean;
  debug: boolean;
  /** Values never to print (the key in use), replaced by `svc_***` in any message. */
  secrets: string[];
}
