import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The project's Markdown: the README, docs/ and the READMEs beside the code (never node_modules or build output). */
export function markdownFiles(root: string): string[] {
  const found = [join(root, 'README.md')];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  for (const dir of ['docs', 'src', 'fixtures', 'bench', 'e2e', 'scripts']) walk(join(root, dir));
  return found;
}

/** Text without fenced code blocks and inline code spans: a `[x](y)` inside code is not a link. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchor (github-slugger): lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const plain = text!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every relative link or image in `file` whose file or heading anchor does not exist, as `file: target`. */
export function brokenLinks(file: string, root: string): string[] {
  const markdown = readFileSync(file, 'utf8');
  const broken: string[] = [];
  for (const [, target] of withoutCode(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: "[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // http:, https:, mailto:
    const [path, anchor] = target!.split('#', 2) as [string, string | undefined];
    const linked = path === '' ? file : resolve(dirname(file), decodeURI(path));
    const ok =
      existsSync(linked) &&
      (anchor === undefined ||
        !linked.endsWith('.md') ||
        headingAnchors(readFileSync(linked, 'utf8')).has(decodeURIComponent(anchor)));
    if (!ok) broken.push(`${relative(root, file)}: ${target}`);
  }
  return broken;
}
