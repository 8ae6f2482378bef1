// The furthest day the demo data moves to (days.ts): a year of changes. Apart from days.ts so that
// `cdata sandbox --day`'s declaration, which help and completions load on every command, loads
// nothing else.
export const MAX_DAY = 365;
