/**
 * BroadcastMessage: the provider's check and the emulator's answer follow one rule, so that
 * what passes preview is what the forge accepts.
 */
import { describe, expect, it } from "vitest";
import { dynamicFaceOf } from "../../provider/runtime";
import { byField, useWorld } from "./world";

const world = useWorld();

const base = { message: "m", startsAt: "2099-01-01T00:00:00Z", endsAt: "2099-01-02T00:00:00Z" };

/** The provider's verdict (the failing properties) and the emulator's status for the same inputs. */
async function verdicts(inputs: Record<string, unknown>): Promise<{ check: string[]; status: number }> {
  const check = byField((await dynamicFaceOf("BroadcastMessage").check({}, inputs)).failures)?.map((failure) => failure.property) ?? [];
  const wire = Object.fromEntries(
    Object.entries(inputs).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]),
  );
  let status = 201;
  try {
    await world().api.request("POST", "/broadcast_messages", wire);
  } catch (error) {
    status = (error as { status: number }).status;
  }
  return { check, status };
}

describe("BroadcastMessage: one rule on both sides", () => {
  it.each([
    [{ font: "#FFF" }, [], 201],
    [{ font: "#FFFFFF" }, [], 201],
    [{ font: "#1f1e24" }, [], 201],
    [{ font: "white" }, ["font"], 400],
    [{ font: "#FFFF" }, ["font"], 400],
    [{ theme: "red", broadcastType: "notification" }, ["theme"], 400],
    [{ theme: "red", broadcastType: "banner" }, [], 201],
    [{ endsAt: base.startsAt }, ["endsAt"], 400],
    [{ endsAt: "2099-01-01T00:00:01Z" }, [], 201],
    [{ message: "   " }, ["message"], 400],
    [{ message: "\n\t" }, ["message"], 400],
  ])("%j: check refuses %j, the forge answers %i", async (change, failing, status) => {
    expect(await verdicts({ ...base, ...change })).toEqual({ check: failing, status });
  });

  it("says what is wrong with a whitespace-only message", async () => {
    const result = await dynamicFaceOf("BroadcastMessage").check({}, { message: "  " });
    expect(byField(result.failures)).toEqual([
      { property: "message", reason: '"  " is only whitespace, and the forge refuses a blank message. Write the text to show.' },
    ]);
  });
});
