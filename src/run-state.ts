// What main (src/cli.ts) learns while a command runs, shared with the program that runs it and
// the reporter that says how it failed.
import type { TransportFactory } from './client/transport.js';

export interface RunState {
  /** How requests are sent: undici's transport unless the caller of main gave another. */
  transport: TransportFactory | undefined;
  /** Called before a command's work (bin/cdata.js: V8's flags, bin/start-up.cjs); see Seams in cli.ts. */
  beforeWork?: (() => void) | undefined;
  jsonErrors: boolean;
  debug: boolean;
  /** Values never to print (the key in use), replaced by `svc_***` in any message. */
  secrets: string[];
}
