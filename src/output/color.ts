// Whether a stream gets colour: --color always|never wins; in auto, NO_COLOR and FORCE_COLOR
// decide, else colour only on a terminal that says what it is (TERM set, not dumb). Decided per
// stream.
import type { ColorMode } from '../config/resolve.js';
import type { Env } from '../config/env.js';
import { type OutStream, termNamed } from '../io/index.js';

export type ColorLevel = 0 | 1 | 2 | 3;

export function colorLevel(stream: OutStream, mode: ColorMode, env: Env): ColorLevel {
  if (mode === 'never') return 0;
  const forced = forceLevel(env.FORCE_COLOR);
  if (mode === 'always') return forced || 1;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  if (forced !== undefined) return forced;
  return stream.isTTY && termNamed(env) ? 1 : 0;
}

function forceLevel(value: string | undefined): ColorLevel | undefined {
  if (value === undefined) return undefined;
  if (value === '' || value === 'true') return 1;
  if (value === 'false') return 0;
  const level = Number(value);
  return level === 0 || level === 1 || level === 2 || level === 3 ? level : 1;
}
