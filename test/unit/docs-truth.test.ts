/**
 * The docs say true things (README.md, CONTRIBUTING.md, docs/**): every link resolves, to a page
 * and to a heading of it; every path of the repository they name exists; every `npm run` script
 * is one of package.json's; every command of the package's bins and scripts they show uses only
 * flags its `--help` lists; and numbers in prose that describe a configuration agree with it.
 * The README stays a landing page: at most 150 lines, the demo and the suite first.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { docFiles } from "../consumer/doc-blocks";

const ROOT = join(__dirname, "..", "..");
const pages = new Map(docFiles(ROOT).map((file) => [file, readFileSync(join(ROOT, file), "utf8")]));
const packageJson = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
};

/** The text outside fenced blocks and inline code, where links are links. */
function prose(text: string): string {
  return outsideFences(text).replace(/`[^`\n]*`/g, "");
}

/** The fenced blocks of a page, each with its fence's language (`""` for none), opening and closing fences paired in order. */
function fencedBlocks(text: string): { language: string; body: string }[] {
  const blocks: { language: string; body: string }[] = [];
  let open: { language: string; lines: string[] } | undefined;
  for (const line of text.split("\n")) {
    const fence = /^ *```(\S*)\s*$/.exec(line);
    if (open === undefined) {
      if (fence) open = { language: fence[1]!, lines: [] };
    } else if (fence && fence[1] === "") {
      blocks.push({ language: open.language, body: open.lines.join("\n") });
      open = undefined;
    } else open.lines.push(line);
  }
  return blocks;
}

/** The text outside fenced blocks. */
function outsideFences(text: string): string {
  let inside = false;
  return text
    .split("\n")
    .filter((line) => {
      const fence = /^ *```/.test(line);
      if (fence) inside = !inside;
      return !fence && !inside;
    })
    .join("\n");
}

/** What a reader sees as code: fenced blocks and inline code spans. */
function codeOf(text: string): string[] {
  return [...fencedBlocks(text).map((block) => block.body), ...[...outsideFences(text).matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!)];
}

/** GitHub's anchors for a page's headings (`## Stack locks: where` is `#stack-locks-where`), repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of outsideFences(text)
    .replace(/`/g, "")
    .matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** Links of a page that do not resolve: the file (from the page's folder) or its heading is missing. */
function brokenLinks(page: string, text: string, read: (path: string) => string | undefined): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!)) continue; // https:, mailto:
    const [path, anchor] = target!.split("#") as [string, string | undefined];
    const file = path === "" ? page : join(dirname(page), path);
    if (!existsSync(join(ROOT, file))) {
      broken.push(`${target}: no ${file}`);
      continue;
    }
    if (anchor === undefined) continue;
    const linked = file.endsWith(".md") ? read(file) : undefined;
    if (linked !== undefined && !anchorsOf(linked).has(anchor)) broken.push(`${target}: ${file} has no heading #${anchor}`);
  }
  return broken;
}

/** The repository's top-level folders (not build outputs): a path the docs name starting with one is the repository's. */
const FOLDERS = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !["node_modules", "dist", ".git"].includes(entry.name))
  .map((entry) => entry.name.replace(/\./g, "\\."));
const REPO_PATH = new RegExp(`(?<![\\w/.~@-])(?:${FOLDERS.join("|")})/[\\w./-]*[\\w/]`, "g");

/** Pages another change is writing, named as plain text until they land: then take them out of here and link them. */
const PLANNED = new Set<string>();

/** Paths into the repository a page names (in prose or code, from the root) that do not exist. */
function missingPaths(text: string, exists: (path: string) => boolean): string[] {
  return [...new Set([...text.matchAll(REPO_PATH)].map((match) => match[0]))].filter((path) => !exists(path) && !PLANNED.has(path));
}

/**
 * Paths a layout tree names relative to its entries, that do not exist. A tree is a fenced block
 * without a language whose first line is a folder and its description (`api/      the API's
 * constants (routes.ts, ...)`); a line indented less than the descriptions is an entry (nested
 * by its indentation), and the file and folder names in an entry's description (`routes.ts`,
 * `plugin/`) are in that entry's folder.
 */
function missingInLayouts(text: string, exists: (path: string) => boolean): string[] {
  const missing = new Set<string>();
  for (const block of fencedBlocks(text).filter(({ language }) => language === "")) {
    const lines = block.body.split("\n").filter((line) => line.trim() !== "");
    const column = /^[\w.-]+\/\s{2,}/.exec(lines[0] ?? "")?.[0].length;
    if (column === undefined) continue;
    const folders: { indent: number; path: string }[] = [];
    let here = "";
    for (const line of lines) {
      const indent = line.length - line.trimStart().length;
      let description = line.trim();
      if (indent < column) {
        const [entry = "", ...rest] = line.trim().split(/\s+/);
        while (folders.length > 0 && folders.at(-1)!.indent >= indent) folders.pop();
        const parent = folders.at(-1)?.path ?? "";
        here = entry.endsWith("/") ? `${parent}${entry}` : parent;
        if (entry.endsWith("/") && !entry.includes("<")) folders.push({ indent, path: here });
        if (!entry.includes("<") && !exists(`${parent}${entry}`)) missing.add(`${parent}${entry}`);
        description = rest.join(" ");
      }
      // Names without a folder of their own in them: `routes.ts`, `plugin/`; `test/layers.ts` is from the root.
      for (const [name] of description
        .replace(/`/g, "")
        .matchAll(/(?<![\w/.<>-])[\w-]+(?:\.[\w]+)*(?:\/|\.(?:ts|json|md|yaml))(?![\w/<>-])/g)) {
        if (!exists(`${here}${name}`)) missing.add(`${here}${name}`);
      }
    }
  }
  return [...missing];
}

/** `npm run <script>` (and `npm test`) a page shows that package.json does not have. */
function unknownScripts(text: string, scripts: Record<string, string>): string[] {
  // `npm run test:<layer>` stands for a family of scripts.
  const named = [...text.matchAll(/\bnpm run (?:--silent )?([\w:.-]+)(?![\w:.<-])/g)].map((match) => match[1]!);
  if (/\bnpm test\b/.test(text)) named.push("test");
  return [...new Set(named)].filter((name) => !(name in scripts));
}

/** The commands whose flags are checked, each with how to get its usage. */
const COMMANDS: Record<string, string[]> = {
  ...Object.fromEntries(
    ["forge-adopt", "forge-drift", "forge-recover", "forge-emulator"].map((bin) => [
      bin,
      [process.execPath, join(ROOT, packageJson.bin[bin]!), "--help"],
    ]),
  ),
  "scripts/demo.sh": ["bash", join(ROOT, "scripts/demo.sh"), "--help"],
  // scripts/test.sh hands its arguments to vitest.
  "scripts/test.sh": [process.execPath, join(ROOT, "node_modules/vitest/vitest.mjs"), "--help"],
};
const COMMAND = new RegExp(
  `(?<![\\w/.-])(${Object.keys(COMMANDS)
    .map((name) => name.replace(/\./g, "\\."))
    .join("|")})(?![\\w.'-])([^\\n|;&>#\`]*)`,
  "g",
);

/** `<command> --flag` pairs in a page's code whose flag the command's usage does not list. */
function unknownFlags(text: string, usage: (command: string) => string): string[] {
  const unknown: string[] = [];
  for (const code of codeOf(text)) {
    for (const [, command, rest] of code.matchAll(COMMAND)) {
      for (const [flag] of rest!.matchAll(/(?<=^|\s|\[)--[a-z][\w-]*/g)) {
        if (flag !== "--help" && !new RegExp(`${flag}(?![\\w-])`).test(usage(command!))) unknown.push(`${command} ${flag}`);
      }
    }
  }
  return [...new Set(unknown)];
}

const usages = new Map<string, string>();
function usageOf(command: string): string {
  if (!usages.has(command)) {
    const [file, ...args] = COMMANDS[command]!;
    usages.set(
      command,
      execFileSync(file!, args, { encoding: "utf8", cwd: ROOT, timeout: 30_000, env: { ...process.env, FORGE_TOKEN: "" } }),
    );
  }
  return usages.get(command)!;
}

const exists = (path: string) => existsSync(join(ROOT, path));
const read = (path: string) => (exists(path) ? readFileSync(join(ROOT, path), "utf8") : undefined);

describe.each([...pages.keys()])("%s", (page) => {
  const text = pages.get(page)!;
  it("links resolve, to the page and its heading", () => expect(brokenLinks(page, text, read)).toEqual([]));
  it("names only paths of the repository that exist", () =>
    expect([...missingPaths(text, exists), ...missingInLayouts(text, exists)]).toEqual([]));
  it("runs only npm scripts package.json has", () => expect(unknownScripts(text, packageJson.scripts)).toEqual([]));
  it("shows commands with only the flags their --help lists", () => expect(unknownFlags(text, usageOf)).toEqual([]));
});

describe("the checks themselves", () => {
  it("catch a wrong link, a wrong heading, a wrong path, an unknown script and an unknown flag", () => {
    const wrong = [
      "[page](guides/nowhere.md), [heading](guides/behaviour.md#no-such-heading), [fine](guides/behaviour.md#import)",
      "emulator/ holds `emulator/cli.ts`; policies/plugin/ the plugin face.",
      "```bash\nnpm run test:nowhere\nnpx forge-drift --stack prod --colour >> out.md   # --not-a-flag in a comment\n```",
    ].join("\n");
    expect(brokenLinks("docs/_index.md", wrong, read)).toEqual([
      "guides/nowhere.md: no docs/guides/nowhere.md",
      "guides/behaviour.md#no-such-heading: docs/guides/behaviour.md has no heading #no-such-heading",
    ]);
    expect(missingPaths(wrong, exists)).toEqual(["emulator/cli.ts", "policies/plugin/"]);
    expect(unknownScripts(wrong, packageJson.scripts)).toEqual(["test:nowhere"]);
    expect(unknownFlags(wrong, usageOf)).toEqual(["forge-drift --colour"]);
  });

  it("catch the names a layout tree gets wrong (the README's Layout before it was checked)", () => {
    const layout = [
      "```",
      "api/         its route table (routes.ts: every endpoint by name), shared",
      "emulator/    core/ (state, access), resources/<name>/ (model + routes), registry.ts,",
      "             http/ (wire format), admin/ (seed, faults, log), cli.ts",
      "policies/    the policy pack",
      "             plugin/ (the plugin face: schema, provider interface)",
      "provider/    the library",
      "  faces/     the dynamic face's adapter (dynamic.ts), the class factory (resource-class.ts)",
      "  engine.ts  the engine",
      "```",
    ].join("\n");
    expect(missingInLayouts(layout, exists)).toEqual(["emulator/cli.ts", "policies/plugin/", "provider/engine.ts"]);
  });
});

describe("the README is a landing page", () => {
  const readme = pages.get("README.md")!;
  it("of at most 150 lines", () => expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(150));
  it("whose first code block is the demo and the suite", () => {
    expect(codeOf(readme)[0]!.split("\n").slice(0, 2)).toEqual(["bash scripts/demo.sh", "bash scripts/test.sh"]);
  });
});

describe("numbers in prose agree with the configuration they describe", () => {
  it("examples/fleet: the drift Job's retries and their time follow its backoffLimit", () => {
    const cronJob = readFileSync(join(ROOT, "examples/fleet/k8s/drift-cronjob.yaml"), "utf8");
    const readme = readFileSync(join(ROOT, "examples/fleet/README.md"), "utf8").replace(/\s+/g, " ");
    const limit = Number(/^\s*backoffLimit: (\d+)$/m.exec(cronJob)?.[1]);
    const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    // Kubernetes retries a failed pod backoffLimit times (backoffLimit + 1 runs), waiting 10 s, doubling, at most 6 minutes.
    const minutes = Array.from({ length: limit }, (_, retry) => Math.min(10 * 2 ** retry, 360)).reduce((sum, wait) => sum + wait, 0) / 60;
    const said = /`backoffLimit: (\d+)` allows (\w+) retries, (\w+) runs in all, over about (\w+) minutes/.exec(readme);
    expect(said, "examples/fleet/README.md says what backoffLimit allows").not.toBeNull();
    expect([Number(said![1]), words.indexOf(said![2]!), words.indexOf(said![3]!)]).toEqual([limit, limit, limit + 1]);
    expect(Math.abs(words.indexOf(said![4]!) - minutes)).toBeLessThanOrEqual(1);
    const comment = /\((\w+) retries, (\w+) runs in all, over about (\d+) minutes\)/.exec(cronJob.replace(/\s*#\s*/g, " "));
    expect([words.indexOf(comment?.[1] ?? ""), words.indexOf(comment?.[2] ?? "")]).toEqual([limit, limit + 1]);
    expect(Math.abs(Number(comment?.[3]) - minutes)).toBeLessThanOrEqual(1);
  });
});
