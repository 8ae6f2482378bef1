// One list's change detection in an export (src/export/detect.ts): against the state the current
// generation holds, with the reason a state is passed over, the state written for the next
// export, and a list's file and state entering the generation together or not at all.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../../src/core/endpoints.js';
import { parseJson } from '../../src/core/json.js';
import { detectChanges } from '../../src/export/detect.js';
import { Generation } from '../../src/export/generation.js';
import { stateText } from '../../src/export/state.js';
import { scratch } from '../faults/scratch.js';

const folder = scratch('cdata-detect');
const endpoint = (name: string) => ENDPOINTS.find((e) => e.name === name) as Endpoint;
const TENDERS = endpoint('tenders');
const AT = '2026-11-22T06:00:00.000Z';
const io = { onInterrupt: () => () => true };

/** A DIR whose current generation holds `files`, and the generation an export opens in it. */
function exportDir(files: Record<string, string> | undefined) {
  const dir = folder();
  let current: string | undefined;
  if (files) {
    current = '..2026_11_21_06_00_00.0123456789';
    mkdirSync(join(dir, current));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, current, name), text);
  }
  return Generation.open(dir, current, io, () => true);
}

const row = (ocid: string, title: string, runwayDays = 3) => ({ ocid, title, runwayDays });

describe('detectChanges', () => {
  it('against the previous state: the changes, their counts, and the new state', () => {
    const before = [row('a', 'Old title'), row('b', 'Stays'), row('c', 'Goes')];
    const generation = exportDir({
      '.state.tenders.json': stateText('tenders', 'ocid', '2026-11-21T06:00:00.000Z', before),
    });
    const answer = parseJson(JSON.stringify([row('a', 'New title', 2), row('b', 'Stays', 1), row('d', 'New')]));
    const detected = detectChanges(generation, TENDERS, answer, false);
    expect(detected).toEqual({
      counts: { added: 1, changed: 1, removed: 1 },
      changes: [
        { resource: 'tenders', key: 'd', change: 'added', row: row('d', 'New') },
        {
          resource: 'tenders',
          key: 'a',
          change: 'changed',
          fields: { title: { from: 'Old title', to: 'New title' } },
          row: row('a', 'New title', 2),
        },
        { resource: 'tenders', key: 'c', change: 'removed', row: row('c', 'Goes') },
      ],
      unusable: undefined,
      // Tenders are ordered best tier first, not by time: no gap can be told (coverage.ts).
      coverage: { gap: null, unseen: null },
    });
  });

  it('a truncated answer reports no row removed, and the removed count is unknown', () => {
    const generation = exportDir({
      '.state.tenders.json': stateText('tenders', 'ocid', AT, [row('a', 'x'), row('c', 'Goes')]),
    });
    const detected = detectChanges(generation, TENDERS, [row('a', 'x')], true);
    expect(detected).toMatchObject({
      counts: { added: 0, changed: 0, removed: null },
      changes: [],
      unusable: undefined,
    });
  });

  it('a first export, in a new folder or one without this list: a baseline (no changes, null counts)', () => {
    for (const generation of [
      exportDir(undefined),
      exportDir({ '.state.agents.json': stateText('agents', 'name', AT, []) }),
    ]) {
      expect(detectChanges(generation, TENDERS, [row('a', 'x')], false)).toEqual({
        counts: null,
        changes: [],
        unusable: undefined,
        coverage: { gap: null, unseen: null },
      });
    }
  });

  it('a state cdata cannot use: a baseline, saying why', () => {
    const cases: [string, string][] = [
      ['{"format":"other"}', 'it is not a state cdata wrote'],
      [stateText('agents', 'name', AT, []), 'it is not the state of tenders'],
      [stateText('tenders', 'ocid', AT, { rows: [] }), 'it holds no list'],
    ];
    for (const [text, why] of cases) {
      const detected = detectChanges(exportDir({ '.state.tenders.json': text }), TENDERS, [row('a', 'x')], false);
      expect(detected).toMatchObject({ counts: null, changes: [], unusable: why });
    }
  });

  it('an endpoint that is not a list has no key to match rows by', () => {
    expect(() => detectChanges(exportDir(undefined), endpoint('me'), {}, false)).toThrow(
      new Error('me is not a list: it has no key field'),
    );
  });
});
