// Whether a stream gets colour: --color, then NO_COLOR and FORCE_COLOR, then the terminal and its TERM.
import { describe, expect, it } from 'vitest';
import { termNamed } from '../../src/io/index.js';
import { colorLevel } from '../../src/output/color.js';

const tty = { write: () => true, isTTY: true };
const pipe = { write: () => true, isTTY: false };

describe('colorLevel', () => {
  it.each([
    ['never', tty, { FORCE_COLOR: '3' }, 0],
    ['always', pipe, { NO_COLOR: '1' }, 1],
    ['always', pipe, { FORCE_COLOR: '3' }, 3],
    ['auto', tty, { TERM: 'xterm-256color' }, 1],
    ['auto', pipe, { TERM: 'xterm-256color' }, 0],
    ['auto', tty, { TERM: 'xterm-256color', NO_COLOR: '1' }, 0],
    ['auto', tty, { TERM: 'xterm-256color', NO_COLOR: '' }, 1],
    ['auto', pipe, { FORCE_COLOR: '' }, 1],
    ['auto', pipe, { FORCE_COLOR: '2' }, 2],
    ['auto', pipe, { FORCE_COLOR: 'true' }, 1],
    ['auto', tty, { FORCE_COLOR: '0' }, 0],
    ['auto', tty, { FORCE_COLOR: 'false' }, 0],
    ['auto', tty, { NO_COLOR: '1', FORCE_COLOR: '1' }, 0],
    ['auto', tty, { TERM: 'dumb' }, 0],
    // A terminal that does not say what it is (`env -i`): dumb, as chalk and git read it.
    ['auto', tty, {}, 0],
    ['auto', tty, { TERM: '' }, 0],
    ['auto', tty, { FORCE_COLOR: '1' }, 1],
  ] as const)('%s on %o with %o: level %i', (mode, stream, env, level) => {
    expect(colorLevel(stream, mode, env)).toBe(level);
  });
});

describe('termNamed: a terminal that can draw', () => {
  it.each([
    [{ TERM: 'xterm-256color' }, 'linux', true],
    [{ TERM: 'dumb' }, 'linux', false],
    [{}, 'linux', false],
    [{ TERM: '' }, 'darwin', false],
    // Windows consoles set no TERM (cmd, PowerShell, Windows Terminal): only `dumb` is dumb there.
    [{}, 'win32', true],
    [{ TERM: '' }, 'win32', true],
    [{ TERM: 'dumb' }, 'win32', false],
  ] as const)('%o on %s: %s', (env, platform, named) => {
    expect(termNamed(env, platform)).toBe(named);
  });
});
