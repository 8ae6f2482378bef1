// The completion script for a shell, generated from the command registry.
import { UsageError } from '../core/errors.js';
import type { AnyCommand } from '../command-kit/command.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionTree } from './model.js';
import { zshScript } from './zsh.js';

export const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;
export type Shell = keyof typeof SHELLS;

export function completionScript(shell: string, commands: readonly AnyCommand[]): string {
  const generate = SHELLS[shell as Shell];
  if (!Object.hasOwn(SHELLS, shell)) throw new UsageError(`no completion for '${shell}': choose bash, zsh or fish`);
  const { root, global } = completionTree(commands);
  return generate(root, global);
}
