/**
 * forge-adopt grows with the library: every declaration of provider/resources/index.ts has an
 * entry in provider/adopt/entries.ts, or an exemption that says why. A new resource fails here
 * until it has one (docs/architecture.md, "Adding a resource").
 */
import { expect, it } from "vitest";
import { adoptEntries } from "../../provider/adopt/entries";
import { formatId } from "../../provider/engine/ids";
import { inputKeys, type AnyDeclaration } from "../../provider/engine/declaration";
import { declarations } from "../../provider/resources";

const keys = Object.keys(declarations) as (keyof typeof declarations)[];

it("covers every declaration, or exempts it with a reason", () => {
  const missing = keys.filter((key) => adoptEntries[key] === undefined);
  expect(missing, "declarations forge-adopt neither adopts nor exempts: add an entry to provider/adopt/entries.ts").toEqual([]);
  for (const key of keys) {
    const entry = adoptEntries[key]!;
    if ("exempt" in entry) expect(entry.exempt.length, `${key}: the exemption's reason`).toBeGreaterThan(20);
  }
  expect(
    Object.keys(adoptEntries).filter((key) => !(key in declarations)),
    "entries for no declaration",
  ).toEqual([]);
});

it("refers only to declarations whose id the referring inputs can form, through an output of the same name", () => {
  for (const key of keys) {
    const entry = adoptEntries[key]!;
    if (!("find" in entry)) continue;
    for (const [input, reference] of Object.entries(entry.references ?? {})) {
      expect(Object.keys(declarations), `${key}.${input} refers to no declaration`).toContain(reference);
      const target = reference as keyof typeof declarations;
      const declaration = declarations[key];
      const targetDeclaration: AnyDeclaration = declarations[target];
      expect(inputKeys(declaration), `${key}.${input}`).toContain(input);
      expect(Object.keys(targetDeclaration.outputs.shape), `${target} has no output ${input}`).toContain(input);
      const sample = Object.fromEntries(targetDeclaration.idParts.map((part) => [part, 1]));
      expect(
        targetDeclaration.idParts.every((part) => inputKeys(declaration).includes(part)),
        `${key} cannot form ${target}'s id`,
      ).toBe(true);
      expect(formatId(targetDeclaration, sample)).toBeTruthy();
      // A target comes first in declaration order, so that a scope declares it before its users.
      expect(keys.indexOf(target), `${target} is declared after ${key}`).toBeLessThan(keys.indexOf(key));
    }
  }
});
