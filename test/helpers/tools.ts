// Programs some tests run besides Node: the shells the completion tests complete in (bash, zsh,
// fish, and bash-completion's loader), groff, which renders the man page, jq, which the
// README's path and the change recipes use, and python-jmespath, which --query's string ordering
// is compared with. A fresh machine may lack any of them: those cases are then skipped and the
// run says so once (skip-reporter.ts). CI may not skip: with CI set, a missing one fails the run
// before any test (global-setup.ts); .ci/run installs them first.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The file that defines bash-completion's loader. */
export const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

/** Each tool, how to tell it is here, and the Debian package that brings it (.ci/run installs these). */
const TOOLS: Record<string, { found: () => boolean; debian: string }> = {
  bash: { found: () => onPath('bash'), debian: 'bash' },
  zsh: { found: () => onPath('zsh'), debian: 'zsh' },
  fish: { found: () => onPath('fish'), debian: 'fish' },
  'bash-completion': { found: () => existsSync(BASH_COMPLETION), debian: 'bash-completion' },
  groff: { found: () => onPath('groff'), debian: 'groff-base' },
  jq: { found: () => onPath('jq'), debian: 'jq' },
  'python3-jmespath': { found: () => pythonWithJmespath() !== undefined, debian: 'python3-jmespath' },
};

/** The test files that skip cases for a missing tool. */
export const TOOL_TESTS = [
  'test/completion/shells.heavy.test.ts',
  'test/docs/man.test.ts',
  'test/install/readme-path.heavy.test.ts',
  'test/export/recipes.heavy.test.ts',
  'test/cli/query-python.test.ts',
];

let python: string | null | undefined;

/**
 * A Python that imports jmespath: Debian's (/usr/bin/python3, where the python3-jmespath package
 * puts it) first, else the python3 on PATH (a pyenv one may have it from pip).
 */
export function pythonWithJmespath(): string | undefined {
  python ??=
    ['/usr/bin/python3', 'python3'].find(
      (command) => spawnSync(command, ['-c', 'import jmespath'], { stdio: 'ignore' }).status === 0,
    ) ?? null;
  return python ?? undefined;
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      return dir !== '' && (statSync(join(dir, command)).mode & 0o111) !== 0;
    } catch {
      return false;
    }
  });
}

export function missingTools(): string[] {
  return Object.keys(TOOLS).filter((name) => !TOOLS[name]!.found());
}

/** CI set (to anything but false or 0): every tool is required, no case may be skipped. */
export function toolsRequired(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/** For skipIf: true when the tool is missing here and CI does not require it. */
export function skipWithout(tool: string): boolean {
  if (!(tool in TOOLS)) throw new Error(`unknown tool ${tool}`);
  return !toolsRequired() && missingTools().includes(tool);
}

export function skipNote(missing: readonly string[], skippedTests: number): string {
  return `skipped ${skippedTests} ${skippedTests === 1 ? 'test' : 'tests'} for want of ${missing.join(', ')}: not installed here (.ci/run installs them; with CI set, a missing one fails the run)`;
}

export function requiredNote(missing: readonly string[]): string {
  const packages = missing.map((name) => TOOLS[name]!.debian).join(' ');
  return `CI is set, so no test may be skipped, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed: run .ci/run, which installs them (Debian: apt-get install ${packages})`;
}
