/**
 * The dynamic face's secrets, for every declaration, as its class registers the resource with the
 * engine: the engine marks the outputs named in `additionalSecretOutputs` secret in the state, and
 * stores inputs marked when the registration sends them marked. The life cycle over both faces
 * (test/contract/life-cycle.test.ts) relies on this: there the dynamic face keeps secret what
 * its class names here. The real engine and state file: test/e2e/kinds.test.ts and
 * test/e2e/check-secrets.test.ts.
 *
 * The registrations are captured from Pulumi's mock monitor (`pulumi.runtime.setMocks`).
 */
import * as pulumi from "@pulumi/pulumi";
import { getMonitor } from "@pulumi/pulumi/runtime/settings";
import { beforeAll, describe, expect, it } from "vitest";
import * as forge from "../../provider";
import { derivedOutputs, inputKeys, declaredSecrets, type AnyDeclaration } from "../../provider/engine/declaration";
import { declarations } from "../../provider/resources";

const SECRET_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const isMarked = (value: unknown) =>
  typeof value === "object" && value !== null && (value as Record<string, unknown>)[SECRET_KEY] === SECRET_SIG;

interface Registration {
  inputs: Record<string, unknown>;
  additionalSecretOutputs: string[];
}
const registrations = new Map<string, Registration>();

type ResourceClass = new (name: string, args: Record<string, unknown>) => pulumi.CustomResource;
const classOf = (declaration: AnyDeclaration) => (forge as unknown as Record<string, ResourceClass>)[declaration.name]!;

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
    "project",
    "stack",
    false,
  );
  const monitor = getMonitor() as unknown as {
    registerResource(request: RegisterRequest, callback: unknown): unknown;
  };
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (request, callback) => {
    registrations.set(request.getName(), {
      inputs: request.getObject()?.toJavaScript() ?? {},
      additionalSecretOutputs: request.getAdditionalsecretoutputsList(),
    });
    return register(request, callback);
  };
});

interface RegisterRequest {
  getName(): string;
  getObject(): { toJavaScript(): Record<string, unknown> } | undefined;
  getAdditionalsecretoutputsList(): string[];
}

/** Registers one resource of the class and waits for the monitor to have it. */
async function register(declaration: AnyDeclaration, name: string, args: Record<string, unknown>): Promise<Registration> {
  const resource = new (classOf(declaration))(name, args);
  await new Promise<void>((resolve) => resource.urn.apply(() => resolve()));
  const registration = registrations.get(name);
  if (!registration) throw new Error(`${name} was not registered`);
  return registration;
}

/** A value for every input (the class does not validate; the provider's check does). */
const argsOf = (declaration: AnyDeclaration): Record<string, unknown> =>
  Object.fromEntries(inputKeys(declaration).map((key) => [key, `${key}-value`]));

describe.each(Object.values(declarations).map((declaration) => [declaration.name, declaration] as const))("%s", (name, declaration) => {
  it("names every secret output for the engine to mark, and sends secret inputs given in plain text marked; the rest plain", async () => {
    const registration = await register(declaration, `${name}-plain`, argsOf(declaration));
    expect(registration.additionalSecretOutputs).toEqual(expect.arrayContaining(declaredSecrets(declaration)));
    for (const key of inputKeys(declaration)) {
      expect(isMarked(registration.inputs[key]), `${key} sent marked`).toBe(declaredSecrets(declaration).includes(key));
    }
    for (const output of Object.keys(derivedOutputs(declaration))) {
      if (!declaredSecrets(declaration).includes(output))
        expect(registration.additionalSecretOutputs, `${output} derived from a plain input`).not.toContain(output);
    }
  });

  const derived = Object.entries(derivedOutputs(declaration)).filter(([output]) => !declaredSecrets(declaration).includes(output));
  if (derived.length > 0) {
    it("makes an output derived from an input secret when the program gives that input as a secret", async () => {
      const args = argsOf(declaration);
      for (const [, input] of derived) args[input] = pulumi.secret(args[input]);
      const registration = await register(declaration, `${name}-derived`, args);
      for (const [output, input] of derived) {
        expect(registration.additionalSecretOutputs, `${output} from secret ${input}`).toContain(output);
        expect(isMarked(registration.inputs[input]), `${input} sent marked`).toBe(true);
      }
    });
  }
});

it("covers the declarations with secrets of each kind: secret outputs, write-only inputs (nested too), derived outputs", () => {
  const all = Object.values(declarations);
  expect(all.some((declaration) => (declaration.secretOutputs ?? []).length > 0)).toBe(true);
  expect(all.some((declaration) => (declaration.writeOnly ?? []).some((path) => path.includes(".")))).toBe(true);
  expect(all.some((declaration) => (declaration.writeOnly ?? []).some((path) => !path.includes(".")))).toBe(true);
  expect(all.some((declaration) => Object.keys(derivedOutputs(declaration)).length > 0)).toBe(true);
});
