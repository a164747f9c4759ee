/**
 * Summarises V8 CPU profiles (`node --cpu-prof`): self time by function and per package (this
 * package, @pulumi/pulumi, zod, node internals, ...). `BENCH_PROFILE` of bench/scale.ts prints it
 * for the profiles it takes; run it alone to look further:
 *
 *   node dist/bench/profile-summary.js <file.cpuprofile | dir> [top=25] [regexp]
 *
 * With a regular expression, also the inclusive time of the functions whose `name file:line`
 * matches it (`.` for all).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .flatMap((entry) => files(join(path, entry)))
    .filter((file) => file.endsWith(".cpuprofile"));
}

function group(url: string): string {
  if (url === "") return "(native/vm)";
  if (url.startsWith("node:")) return "node internals";
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  if (url.includes("/dist/")) return "pulumi-forge";
  return url;
}

export function summarise(file: string, top: number, pattern?: RegExp): void {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i += 1) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    const short = frame.url
      .replace(/^.*node_modules\//, "")
      .replace(/^.*\/dist\//, "dist/")
      .replace(/^file:\/\//, "");
    return `${frame.functionName || "(anonymous)"} ${short}:${frame.lineNumber + 1}`;
  };
  // Inclusive time: each sample counts once for every function on its stack.
  const inclusive = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i += 1) {
    const seen = new Set<string>();
    for (let id: number | undefined = profile.samples[i]!; id !== undefined; id = parent.get(id)) seen.add(keyOf(id));
    for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const byFunction = new Map<string, number>();
  const byGroup = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const key = keyOf(id);
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    byGroup.set(group(frame.url), (byGroup.get(group(frame.url)) ?? 0) + us);
    total += us;
  }
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%`;
  console.log(`\n${file}: ${(total / 1000).toFixed(0)} ms sampled, wall ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms`);
  console.log("  by group:");
  for (const [key, us] of [...byGroup].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`    ${ms(us)}  ${key}`);
  console.log("  by function (self):");
  for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`    ${ms(us)}  ${key}`);
  if (pattern) {
    console.log(`  inclusive, functions matching ${pattern}:`);
    const matching = [...inclusive].filter(([key]) => pattern.test(key)).sort((a, b) => b[1] - a[1]);
    for (const [key, us] of matching.slice(0, top)) console.log(`    ${ms(us)}  ${key}`);
  }
}

if (require.main === module) {
  const [path, top = "25", match] = process.argv.slice(2);
  if (!path) {
    console.error("usage: node dist/bench/profile-summary.js <file.cpuprofile | dir> [top] [regexp]");
    process.exit(2);
  }
  for (const file of files(path)) summarise(file, Number(top), match ? new RegExp(match) : undefined);
}
