// The guides: the README first, then the pages under docs/ in the order the README's Guides
// section lists them. The README test runs their samples in this order; other tests find the
// section they document here.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export type Guide = { name: string; file: string; text: string };

export function guides(): Guide[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = /^## Guides\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? '';
  const names = [...section.matchAll(/\]\(docs\/([a-z0-9-]+)\.md\)/g)].map((m) => m[1]!);
  return [
    { name: 'README', file: 'README.md', text: readme },
    ...names.map((name) => ({ name, file: `docs/${name}.md`, text: fs.readFileSync(path.join(ROOT, 'docs', `${name}.md`), 'utf8') })),
  ];
}

/** The guide that has the heading `## title` (or `# title`), with that section's text. */
export function guideSection(title: string): { guide: Guide; section: string } {
  for (const guide of guides()) {
    const at = guide.text.search(new RegExp(`^#{1,3} ${title.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')}\\s*$`, 'm'));
    if (at < 0) continue;
    const rest = guide.text.slice(at);
    const next = rest.slice(1).search(/^#{1,2} /m);
    return { guide, section: next < 0 ? rest : rest.slice(0, next + 1) };
  }
  throw new Error(`no guide has a section titled ${title}`);
}
