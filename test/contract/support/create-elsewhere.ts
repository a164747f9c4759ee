/**
 * A second provider process for the race tests: runs one create of the engine in its own
 * process (its own turns, its own connections), as another stack's `pulumi up` would, and prints
 * how it ended as one line of JSON. Run from the compiled tree:
 * `node dist/test/contract/support/create-elsewhere.js '<{"type":..., "inputs":...}>'`
 * with FORGE_BASE_URL, FORGE_TOKEN (and FORGE_TIMEOUT_MS) set.
 */
import { implementation } from "../../../provider/runtime";

async function main(): Promise<void> {
  const { type, inputs } = JSON.parse(process.argv[2] ?? "{}") as { type: string; inputs: Record<string, unknown> };
  try {
    const created = await implementation(type).create(inputs);
    process.stdout.write(`${JSON.stringify({ ok: true, id: created.id })}\n`);
  } catch (error) {
    const { name, message, candidates } = error as { name?: string; message?: string; candidates?: string[] };
    process.stdout.write(`${JSON.stringify({ ok: false, name, message, candidates })}\n`);
  }
  process.exit(0);
}

void main();
