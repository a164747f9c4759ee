import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatId, idFormat, parseId } from "../../provider/engine/ids";
import type { AnyDeclaration } from "../../provider/engine/declaration";
import { declarations } from "../../provider/resources";

describe("ids", () => {
  it("format and parse are symmetric for every declaration", () => {
    for (const declaration of Object.values(declarations) as AnyDeclaration[]) {
      const sample = (part: string, index: number) => {
        const schema = declaration.inputs.shape[part] ?? declaration.outputs.shape[part];
        if (index === 0) return "acme/platform";
        if (schema instanceof z.ZodLiteral) return schema.value as string;
        return schema.safeParse(41).success ? 40 + index : "production";
      };
      const state = Object.fromEntries(declaration.idParts.map((part, index) => [part, sample(part, index)]));
      const id = formatId(declaration, state);
      expect(parseId(declaration, id), declaration.name).toEqual(state);
    }
  });

  it("turns digit parts into numbers only where the field takes a number", () => {
    expect(parseId(declarations.groupLabel, "42:7")).toEqual({ group: 42, labelId: 7 });
    expect(parseId(declarations.projectProtectedEnvironment, "acme/web:2024")).toEqual({ project: "acme/web", name: "2024" });
  });

  it("rejects an id of the wrong shape with the expected format", () => {
    expect(() => parseId(declarations.clusterAgentToken, "acme/web:3")).toThrow("<project>:<agentId>:<tokenId>");
    expect(() => parseId(declarations.groupLabel, "acme:")).toThrow(idFormat(declarations.groupLabel));
  });

  it("round-trips parts holding ':', '/', '%', spaces and non-ASCII", () => {
    const values = ["team::backend", "a:b", "acme/platform", "50%", "%3A literally", "two words", "café ☕", "déploiement:prod"];
    for (const value of values) {
      const label = { group: "acme/platform", labelId: value };
      expect(parseId(declarations.groupLabel, formatId(declarations.groupLabel, label)), value).toEqual(label);
      const environment = { project: value, name: value };
      expect(
        parseId(declarations.projectProtectedEnvironment, formatId(declarations.projectProtectedEnvironment, environment)),
        value,
      ).toEqual(environment);
    }
    expect(formatId(declarations.groupLabel, { group: "acme", labelId: "team::backend" })).toBe("acme:team%3A%3Abackend");
  });

  it("still reads ids written before parts were escaped: extra ':' belong to the last part", () => {
    expect(parseId(declarations.groupLabel, "acme:team::backend")).toEqual({ group: "acme", labelId: "team::backend" });
  });

  it("refuses to form an id from an empty part", () => {
    expect(() => formatId(declarations.groupLabel, { group: "acme" })).toThrow('field "labelId" is empty');
  });
});
