/**
 * The TypeScript blocks of the README, CONTRIBUTING.md and docs/: every ```ts block is a program a user may paste,
 * unless the line before it is `<!-- fragment: <why> -->` (an excerpt of an interface, a
 * placeholder import), which must say why it cannot run. The ```yaml blocks too, for the checks
 * of test/unit/reference-examples.test.ts.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** One ```ts block. */
export interface DocBlock {
  /** `README.md:28`: the file (relative to the root) and the line of the opening fence. */
  where: string;
  code: string;
  /** The reason given in the fragment marker, when the block is one. */
  fragment?: string;
}

const FRAGMENT_MARKER = /^<!--\s*fragment:\s*(.*?)\s*-->$/;

/** The languages of the blocks, by the names their fences use. */
const FENCES = { ts: /^(ts|typescript)$/, yaml: /^(yaml|yml)$/ } as const;

/** The pages users and contributors read: README.md, CONTRIBUTING.md and docs/**\/*.md, as paths from `root`. */
export function docFiles(root: string): string[] {
  return [join(root, "README.md"), join(root, "CONTRIBUTING.md"), ...markdownFiles(join(root, "docs"))].map((file) => relative(root, file));
}

/**
 * Every ```ts block (or ```yaml block) of the pages of {@link docFiles}. A fence indented under a
 * list item counts too; its indentation is taken off the block's lines.
 */
export function docBlocks(root: string, language: keyof typeof FENCES = "ts"): DocBlock[] {
  return docFiles(root).flatMap((file) => blocksOf(file, readFileSync(join(root, file), "utf8"), FENCES[language]));
}

function blocksOf(name: string, text: string, fence: RegExp): DocBlock[] {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(\S*)\s*$/.exec(lines[i]!);
    if (!open || !fence.test(open[2]!)) continue;
    const indent = open[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^ *```\s*$/.test(lines[i]!); i++)
      body.push(lines[i]!.startsWith(indent) ? lines[i]!.slice(indent.length) : lines[i]!);
    const reason = FRAGMENT_MARKER.exec(lines[start - 1]?.trim() ?? "")?.[1];
    blocks.push({ where: `${name}:${start + 1}`, code: `${body.join("\n")}\n`, ...(reason !== undefined ? { fragment: reason } : {}) });
  }
  return blocks;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return markdownFiles(path);
      return path.endsWith(".md") ? [path] : [];
    });
}
