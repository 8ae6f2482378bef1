// The names of the faults `cdata sandbox --fault NAME` offers (faults.ts maps each to its fault;
// its type makes the two lists one). Apart from faults.ts so that help and completions, which
// load on every command, need not load node:http.
export const FAULT_NAMES = [
  'unavailable',
  'internal',
  'too-many-requests',
  'bad-request',
  'reset-mid-body',
  'stall-after-headers',
  'short-content-length',
  'html-200',
  'object-for-array',
  'broken-json',
  'empty-list',
] as const;

export type FaultName = (typeof FAULT_NAMES)[number];
