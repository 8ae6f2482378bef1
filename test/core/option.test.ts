// Options are checked by their declarations while they parse, before any handler runs: a
// required option that is absent or empty, and options that cannot go together.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { flag, parseValues, text, type OptionSpec, type RawOption } from '../../src/core/option.js';

const OPTIONS = {
  dir: text('--dir <dir>', 'a folder', { required: () => new UsageError('needs a folder: --dir DIR') }),
  decided: flag('--decided', 'decided', { conflicts: ['undecided'] }),
  undecided: flag('-u, --undecided', 'undecided'),
};

function parse(found: Record<string, RawOption>) {
  const names = new Map<OptionSpec<unknown>, string>(Object.entries(OPTIONS).map(([name, option]) => [option, name]));
  return parseValues(OPTIONS, (option) => found[names.get(option)!]);
}

describe('parseValues', () => {
  it('gives the values when the rules hold', () => {
    expect(parse({ dir: 'out', undecided: true })).toEqual({ dir: 'out', decided: false, undecided: true });
  });

  it('refuses a required option absent with its own error; empty or only spaces, as given so', () => {
    expect(() => parse({})).toThrow(new UsageError('needs a folder: --dir DIR'));
    expect(() => parse({ dir: '' })).toThrow(new UsageError('--dir needs a value: it was given an empty one'));
    expect(() => parse({ dir: '   ' })).toThrow(new UsageError('--dir needs a value: it was given only spaces'));
  });

  it('refuses options that cannot go together, by their long flags, before a missing one', () => {
    expect(() => parse({ decided: true, undecided: true })).toThrow(
      new UsageError('--decided and --undecided cannot be used together'),
    );
  });
});
