// `cdata completion bash|zsh|fish`.
import { defineCommand } from '../../command-kit/command.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export const COMPLETION_ARGS = [
  { name: 'shell', description: 'bash, zsh or fish', required: true, complete: { kind: 'values', values: SHELLS } },
] as const;

export const COMPLETION_COMMAND = defineCommand({
  name: 'completion',
  summary: 'Print the shell completion script for bash, zsh or fish',
  args: COMPLETION_ARGS,
  examples: [
    'cdata completion bash > ~/.local/share/bash-completion/completions/cdata',
    'cdata completion zsh > ~/.zfunc/_cdata',
    'cdata completion fish > ~/.config/fish/completions/cdata.fish',
  ],
});
