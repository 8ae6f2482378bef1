// Regenerates completions/cdata.{bash,zsh,fish} from the built CLI (`npm run completions`).
// test/completion checks the committed files equal `cdata completion SHELL`.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
for (const shell of ['bash', 'zsh', 'fish']) {
  const script = execFileSync(process.execPath, [new URL('bin/cdata.js', root).pathname, 'completion', shell], {
    encoding: 'utf8',
  });
  writeFileSync(new URL(`completions/cdata.${shell}`, root), script);
  console.log(`completions/cdata.${shell}`);
}
