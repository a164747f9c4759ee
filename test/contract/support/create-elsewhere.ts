/**
 * A second provider process for the race tests: runs one create (or, given `update`, one update)
 * of the engine in its own process (its own turns, its own connections), as another stack's
 * `pulumi up` would, and prints how it ended as one line of JSON. Run from the compiled tree:
 * `node dist/test/contract/support/create-elsewhere.js '<{"type":..., "inputs":...}>'`
 * with FORGE_BASE_URL, FORGE_TOKEN (and FORGE_TIMEOUT_MS) set.
 */
import { dynamicFaceOf } from "../../../provider/runtime";

async function main(): Promise<void> {
  type State = Record<string, unknown>;
  const { type, inputs, update } = JSON.parse(process.argv[2] ?? "{}") as {
    type: string;
    inputs: State;
    update?: { id: string; olds: State };
  };
  try {
    const ops = dynamicFaceOf(type);
    const done = update ? { id: update.id, outs: (await ops.update(update.id, update.olds, inputs)).outs } : await ops.create(inputs);
    process.stdout.write(`${JSON.stringify({ ok: true, id: done.id, outs: done.outs })}\n`);
  } catch (error) {
    const { name, message, candidates } = error as { name?: string; message?: string; candidates?: string[] };
    process.stdout.write(`${JSON.stringify({ ok: false, name, message, candidates })}\n`);
  }
  process.exit(0);
}

void main();
