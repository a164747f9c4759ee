import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, expect, test } from "vitest";
import { GroupLabel } from "../../provider";

type Formatter = (error: Error, stack: NodeJS.CallSite[]) => unknown;

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => args.inputs,
    },
    "project",
    "stack",
    true,
  );
});

const original = Error.prepareStackTrace;
afterEach(() => {
  Error.prepareStackTrace = original;
});

/** A program's formatter (ts-node installs one) that records the first frame of each stack it formats. */
function recordingFormatter(seen: string[]): Formatter {
  return (error, stack) => {
    seen.push(stack[0]?.getFunctionName() ?? "");
    return `mapped ${String(error)}`;
  };
}

test("while a resource registers, the SDK's debugging promises skip the program's formatter; its source position does not", () => {
  const seen: string[] = [];
  const formatter = recordingFormatter(seen);
  Error.prepareStackTrace = formatter;
  new GroupLabel("stacks", { group: "acme", name: "stacks", color: "#aa0000" });
  expect(Error.prepareStackTrace).toBe(formatter);
  expect(seen).toContain("callsites");
  expect(seen).not.toContain("debuggablePromise");
});

test("an error thrown while registering keeps the program's formatter, and the formatter is put back", () => {
  const seen: string[] = [];
  const formatter = recordingFormatter(seen);
  Error.prepareStackTrace = formatter;
  new GroupLabel("twice", { group: "acme", name: "twice", color: "#aa0000" });
  let thrown: unknown;
  try {
    // A resource option the SDK refuses while the constructor runs.
    new GroupLabel("bad", { group: "acme", name: "bad", color: "#aa0000" }, { parent: {} as pulumi.Resource });
  } catch (error) {
    thrown = error;
  }
  expect(Error.prepareStackTrace).toBe(formatter);
  expect(thrown).toBeInstanceOf(Error);
  expect((thrown as Error).stack).toMatch(/^mapped /);
});

test("without a program formatter nothing is installed", () => {
  (Error as { prepareStackTrace?: unknown }).prepareStackTrace = undefined;
  new GroupLabel("plain", { group: "acme", name: "plain", color: "#aa0000" });
  expect(Error.prepareStackTrace).toBeUndefined();
});
