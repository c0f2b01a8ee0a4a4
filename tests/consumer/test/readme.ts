/**
 * The README Quick start as data: the code blocks of the `## Quick start` section of the
 * repository's README.md, so the consumer test runs exactly what a reader copies.
 *
 * Conventions the README follows (and this parser enforces):
 *  - a ```ts / ```tsx / ```js block whose first line is `// <relative path>` is a file of the app;
 *  - a ```sh block is a list of commands, one per line (no comments, no continuation lines).
 * Pitfall: a block that is neither (no path comment, another language) fails the parse, so the
 * README cannot grow an example that the test silently skips.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface QuickStart {
  /** App files: relative path → content (the path comment line kept, as the reader copies it). */
  readonly files: ReadonlyMap<string, string>;
  /** Shell commands, in README order. */
  readonly commands: readonly string[];
  /** The section's full text (for link checks). */
  readonly text: string;
}

export function readQuickStart(repoRoot: string): QuickStart {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Quick start\n');
  if (start < 0) throw new Error('README.md has no "## Quick start" section');
  const rest = readme.slice(start + 1);
  const next = rest.indexOf('\n## ', 3);
  const text = next < 0 ? rest : rest.slice(0, next);
  const files = new Map<string, string>();
  const commands: string[] = [];
  for (const m of text.matchAll(/^```([a-z]*)\n([\s\S]*?)^```$/gm)) {
    const lang = m[1] as string;
    const body = m[2] as string;
    if (lang === 'sh') {
      for (const line of body.split('\n')) if (line.trim() !== '') commands.push(line.trim());
      continue;
    }
    const path = /^\/\/ ([\w@[\]./-]+)\n/.exec(body)?.[1];
    if (!['ts', 'tsx', 'js'].includes(lang) || !path)
      throw new Error(`README Quick start: a \`\`\`${lang} block without a "// <path>" first line:\n${body.slice(0, 200)}`);
    if (files.has(path)) throw new Error(`README Quick start: two blocks for ${path}`);
    files.set(path, body);
  }
  return { files, commands, text };
}
