// --shard I/N: N copies of one command (N cron hosts, N pods of an Indexed Job) each export the
// profiles of one shard, and together every profile exactly once. A profile's shard depends on
// its name alone, so it is the same on every machine, in every run, whatever the other profiles:
//
//   shard = (FNV-1a 32-bit hash of the name's UTF-8 bytes) mod N, plus 1
//
// FNV-1a 32-bit: h = 2166136261; for each byte b: h = (h XOR b) * 16777619 mod 2^32.
// docs/many-profiles.md gives the same in a few lines of Python and sh, with worked values.
import { UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** More shards than any fleet of machines; a bound, so a typo cannot ask for 10^20. */
export const MAX_SHARDS = 10_000;

export function parseShard(raw: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(count >= 1 && count <= MAX_SHARDS && index >= 1 && index <= count)) {
    throw new UsageError(`--shard must be I/N with 1 <= I <= N <= ${MAX_SHARDS}, e.g. 2/4 (got '${sanitize(raw)}')`, {
      hint: 'I counts from 1. A Kubernetes Indexed Job counts JOB_COMPLETION_INDEX from 0: pass --shard "$((JOB_COMPLETION_INDEX + 1))/N".',
    });
  }
  return { index, count };
}

export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/** The 1-based shard of N that `name` falls in. */
export function shardOf(name: string, count: number): number {
  return (fnv1a32(name) % count) + 1;
}

export function inShard(name: string, shard: Shard): boolean {
  return shardOf(name, shard.count) === shard.index;
}
