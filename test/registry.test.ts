// One test that walks the whole registry (as npm's load-all-commands does): every command has a
// summary and examples, renders its help, and every endpoint has a command whose fields the
// completions offer.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/index.js';
import { runs, walkCommands, type AnyCommand } from '../src/command-kit/command.js';
import { HANDLERS } from '../src/commands/handlers.js';
import { completionScript } from '../src/completion/index.js';
import { ENDPOINTS, fieldNames } from '../src/core/endpoints.js';
import { run } from './helpers/run.js';

const visible: [string[], AnyCommand][] = walkCommands(COMMANDS)
  .filter(({ spec }) => !spec.hidden)
  .map(({ spec, path }) => [path, spec]);

describe('every command in the registry', () => {
  it.each(visible.map(([path, spec]) => [path.join(' '), spec] as const))(
    '%s: a summary, examples, and help that shows them',
    async (name, spec) => {
      expect(spec.summary.length).toBeGreaterThan(10);
      const help = await run([...name.split(' '), '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(spec.summary);
      expect(spec.examples?.length).toBeGreaterThan(0);
      expect(help.stdout).toContain('Examples:');
      // Help is wrapped to 80 columns (no terminal): a long example continues on the next line,
      // after a ` \` (the shell's line continuation).
      const unwrapped = help.stdout.replace(/ \\\n\s+/g, ' ').replace(/\s+/g, ' ');
      for (const example of spec.examples!) expect(unwrapped).toContain(example.replace(/\s+/g, ' '));
      for (const sub of spec.subcommands ?? []) expect(help.stdout).toContain(sub.name);
    },
  );

  it('every command that runs has a handler, every group none, and no handler is left without its command', async () => {
    const all = walkCommands(COMMANDS);
    const running = all.filter(({ spec }) => runs(spec)).map(({ path }) => path.join(' '));
    expect(Object.keys(HANDLERS).sort()).toEqual(running.sort());
    for (const name of running) expect(typeof (await HANDLERS[name]!())).toBe('function');
  });

  it('every endpoint has its command, and each shell completes each of its fields', () => {
    const scripts = ['bash', 'zsh', 'fish'].map((shell) => completionScript(shell, COMMANDS));
    for (const endpoint of ENDPOINTS) {
      const command = COMMANDS.find((c) => c.view === endpoint);
      expect(command?.name).toBe(endpoint.name);
      for (const script of scripts) {
        for (const field of fieldNames(endpoint)) expect(script).toContain(field);
      }
    }
  });

  it('root help lists every top-level command and every environment variable', async () => {
    const help = await run(['--help']);
    for (const spec of COMMANDS.filter((c) => !c.hidden)) expect(help.stdout).toContain(spec.name);
    for (const name of [
      'CDATA_PROFILE',
      'CDATA_BASE_URL',
      'CDATA_API_KEY',
      'CDATA_CONFIG_DIR',
      'CDATA_DEBUG',
      'NO_COLOR',
      'FORCE_COLOR',
      'HTTPS_PROXY',
      'NO_PROXY',
    ]) {
      expect(help.stdout).toContain(name);
    }
  });
});
