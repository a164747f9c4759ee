/**
 * forge-adopt's programs hold text from outside only as data: an adoption with a hostile string in
 * every place a program writes one (header notes, Terraform addresses and notes, the `terraform
 * state rm` words, section titles, comments after values, resource names, import ids, input
 * values and keys, file paths, the config listing, the project's name and plugin path) renders, in
 * TypeScript and in Pulumi YAML, to a program that parses, declares exactly the adoption's
 * resources with exactly its values, holds no raw control or invisible character, and whose shell
 * words a real shell reads back as the addresses. The forge and Terraform state round trips are
 * test/cli/adopt-hostile.test.ts; the real engine's, test/e2e/adopt-terraform.test.ts.
 */
import { execFileSync } from "node:child_process";
import { resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { camel, markdownCode, printable, shellWord, typescript, yaml } from "../../provider/adopt/escape";
import type { AdoptEntry } from "../../provider/adopt-entry/entry";
import type { AdoptedResource, Adoption } from "../../provider/adopt/read";
import { faceLines, headerLines, renderProgram } from "../../provider/adopt/render";
import { renderYamlProgram } from "../../provider/adopt/render-yaml";
import { adoptEntries, declarations } from "../../provider/resources";
import { typescriptDeclarations, yamlDeclarations, type Declared, type Value } from "../support/generated-programs";
import { HOSTILE, RAW_UNSAFE } from "../support/hostile-text";

const texts = Object.values(HOSTILE);
const OPTIONS = { baseUrl: HOSTILE["newline"]!, version: HOSTILE["escape"]! };

/** One resource per hostile string, that string everywhere a resource holds text, each referring to the one before. */
function hostileAdoption(): { adoption: Adoption; expected: Declared[] } {
  const resources: AdoptedResource[] = [];
  const expected: Declared[] = [];
  for (const [index, text] of texts.entries()) {
    // Names are the forge's words made a slug (read.ts); what a slug can hold is test/cli/adopt-hostile.test.ts's.
    const name = `hostile-${index}`;
    const previous = resources[index - 1];
    const secret = camel(`secret ${index}`);
    resources.push({
      key: "groupLabel",
      declaration: declarations.groupLabel,
      scope: "group",
      path: text,
      importId: text,
      name,
      referenced: true,
      origin: text,
      inputs: {
        group: text,
        name: { kind: "commented", value: text, comment: text },
        nested: { [`key ${text.slice(0, 500)}`]: [text, { kind: "commented", value: index, comment: text }], plain: null },
        secret: { kind: "secret", key: secret, path: "secret", writeOnly: true, source: `${text} of ${text}` },
        file: { kind: "file", path: text },
        ...(previous ? { labelId: { kind: "reference", target: previous.name, output: "labelId" } } : {}),
      },
    });
    expected.push({
      type: "GroupLabel",
      name,
      import: text,
      inputs: {
        group: text,
        name: text,
        nested: { [`key ${text.slice(0, 500)}`]: [text, index], plain: null },
        secret: { secret },
        file: { file: text },
        ...(previous ? { labelId: { reference: { target: previous.name, output: "labelId" } } } : {}),
      } as Record<string, Value>,
    });
  }
  const notices = texts.map((text) => ({ what: text, text }));
  const adoption: Adoption = {
    resources,
    skipped: texts.flatMap((text, index) => [
      { what: text, reason: text },
      { what: `${text}`, reason: `${index}`, left: true },
    ]),
    terraform: { file: HOSTILE["quotes"]!, cannotMove: notices, notes: notices },
  };
  return { adoption, expected };
}

/** A shell word as the shell reads it. */
function shellRead(word: string): string {
  return execFileSync("bash", ["-c", `printf '%s' ${word}`], { encoding: "utf8" });
}

describe("a program rendered from hostile text", () => {
  const { adoption, expected } = hostileAdoption();
  const command = `--from-terraform ${shellWord(HOSTILE["quotes"]!)}`;

  it.each([
    ["TypeScript", () => renderProgram(adoption, command, OPTIONS), typescriptDeclarations],
    ["TypeScript on the dynamic face", () => renderProgram(adoption, command, { ...OPTIONS, face: "dynamic" }), typescriptDeclarations],
    [
      "Pulumi YAML",
      () => renderYamlProgram(adoption, command, { ...OPTIONS, project: HOSTILE["yamlIndicators"]!, pluginPath: HOSTILE["newline"]! }),
      (text: string) => yamlDeclarations(text).resources,
    ],
  ] as const)("in %s declares exactly the adoption's resources, each with its values, and nothing else", (_language, render, read) => {
    const program = render();
    expect(RAW_UNSAFE.exec(program)?.[0]).toBeUndefined();
    expect(read(program)).toEqual(expected);
  });

  it("keeps each header line one comment line, in both languages", () => {
    const lines = headerLines(adoption, command, OPTIONS, "a difference");
    for (const face of ["plugin", "dynamic"] as const) {
      const typescriptLines = headerLines(adoption, command, OPTIONS, "a difference", faceLines(face));
      const typescriptHeader = renderProgram(adoption, command, { ...OPTIONS, face }).split("\n");
      expect(
        typescriptHeader.slice(0, typescriptLines.length).every((line) => line.startsWith("//")),
        face,
      ).toBe(true);
      expect(typescriptHeader[typescriptLines.length], face).toBe("");
    }
    const yamlHeader = renderYamlProgram(adoption, command, { ...OPTIONS, project: "p" }).split("\n");
    expect(yamlHeader.slice(0, lines.length).every((line) => line.startsWith("#"))).toBe(true);
    expect(yamlHeader[lines.length]).toBe("");
  });

  it("spells the project's name and plugin path in YAML as they are (the CLI reads them, no interpolation)", () => {
    const program = parse(
      renderYamlProgram(adoption, command, { ...OPTIONS, project: HOSTILE["interpolation"]!, pluginPath: HOSTILE["newline"]! }),
    ) as { name: string; plugins: { providers: { path: string }[] } };
    expect(program.name).toBe(HOSTILE["interpolation"]);
    expect(program.plugins.providers[0]!.path).toBe(HOSTILE["newline"]);
  });

  it("lists in `terraform state rm` shell words that a shell reads back as the addresses, and names an address no command line can hold", () => {
    const program = renderProgram(adoption, command, OPTIONS);
    const words = [...program.matchAll(/^\/\/ {5}(.+?)(?: \\)?$/gm)].map(([, word]) => word!);
    const addresses = [...new Set(texts)].filter((text) => !text.includes("\u0000")).sort();
    expect(words.slice(0, addresses.length).map(shellRead)).toEqual(addresses);
    expect(program).toContain("// No command line can name these addresses (each holds a NUL character)");
    expect(program).toContain(`//     ${printable(HOSTILE["nul"]!)}`);
  });
});

describe("the escaping functions", () => {
  it("make comments of one line, whatever the text holds", () => {
    for (const text of texts) {
      for (const comment of [typescript(text, "comment"), yaml(text, "comment")]) {
        expect(comment).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
        expect(comment).not.toMatch(RAW_UNSAFE);
      }
    }
    expect(typescript("a\nb", "comment")).toBe("// a\\nb");
    expect(yaml("", "comment")).toBe("#");
  });

  it("make TypeScript string literals that evaluate to the text", () => {
    for (const text of texts) expect(new Function(`return ${typescript(text, "string")};`)()).toBe(text);
  });

  it("make YAML scalars that read back as the text: literal ones as they are, evaluated ones with `$` doubled", () => {
    for (const text of [...texts, "yes", "No", "null", "~", "123", "1e3", "0x1F", "", " padded ", "#FF0000", "acme/web", "type::bug"]) {
      expect(parse(`v: ${yaml(text, "literal")}`)).toEqual({ v: text });
      expect(parse(`v: ${yaml(text, "value")}`)).toEqual({ v: text.replaceAll("$", () => "$$") });
      const key = `k${text.slice(0, 500)}`;
      expect(parse(`${yaml(key, "key")}: 1`)).toEqual({ [key.replaceAll("$", () => "$$")]: 1 });
    }
    expect([yaml("acme/platform/deployer", "value"), yaml("a$b", "value"), yaml("a$b", "literal")]).toEqual([
      "acme/platform/deployer",
      '"a$$b"',
      '"a$b"',
    ]);
  });

  it("refuse a YAML key that Pulumi YAML would take for a function, or YAML for no key", () => {
    expect(() => yaml(HOSTILE["long"]!, "key")).toThrow(/cannot write a key of 1\d{4} characters in YAML: a key is at most 1024/);
    expect(() => yaml("fn::readFile", "key")).toThrow(
      'forge-adopt cannot write the key "fn::readFile" in Pulumi YAML: an object with a key starting with "fn::" is a function call there',
    );
    expect(() => yaml("Fn::Invoke", "key")).toThrow(/function call/);
    expect(yaml("fn::readFile", "value")).toBe('"fn::readFile"');
  });

  it("make identifiers TypeScript can bind, and properties that read back as the key", () => {
    for (const text of [...texts, "delete", "class", "123", "", "await", "__proto__"]) {
      const name = typescript(text, "identifier");
      expect(() => new Function(`const ${name} = 1; return ${name};`)).not.toThrow();
      const property = typescript(text, "property");
      expect(Object.keys(new Function(`return { ${property}: 1 };`)())).toEqual([text]);
    }
  });

  it("make shell words the shell reads back as the text, and none for text holding NUL", () => {
    for (const text of texts.filter((item) => !item.includes("\u0000"))) expect(shellRead(shellWord(text)!)).toBe(text);
    expect(shellWord(HOSTILE["nul"]!)).toBeUndefined();
    expect([shellWord("module.a.gitlab_group.b"), shellWord('x["k"]')]).toEqual(["module.a.gitlab_group.b", `'x["k"]'`]);
  });
});

describe("a snippet's file names from the forge stay under the program's snippets/ folder", () => {
  it.each(["../../../etc/passwd", "/etc/passwd", "a/../../x", "....//x", ".", "..", `${"../".repeat(50)}x`])("%s", async (name) => {
    const entry = adoptEntries.snippet as AdoptEntry;
    const files = await entry.files!(
      { files: [{ filePath: name, content: "x" }] },
      { snippetId: 7, visibility: "private" },
      { path: "root", client: undefined as never },
    );
    const root = resolve("/program/snippets/7");
    expect(resolve("/program", files[0]!.path).startsWith(`${root}${sep}`) || resolve("/program", files[0]!.path) === root).toBe(true);
  });
});

describe("text from the forge in a markdown report", () => {
  it("is inline code: no link, image, HTML, mention or reference; one line; a | does not end a table cell; any run of backticks fenced", () => {
    const name = "[click](https://evil.example) ![i](https://evil.example/i.png) @all #1 <b>bold</b> | ``x`` \n# heading";
    const code = markdownCode(name);
    expect(code).toBe("```[click](https://evil.example) ![i](https://evil.example/i.png) @all #1 <b>bold</b> \\| ``x`` \\n# heading```");
    expect(code.split("\n")).toHaveLength(1);
    expect(code.startsWith("```") && code.endsWith("```")).toBe(true);
    expect(markdownCode("`edge`")).toBe("`` `edge` ``");
    expect(markdownCode("")).toBe("");
    for (const text of Object.values(HOSTILE)) expect(markdownCode(text)).not.toMatch(/[\n\r\u2028\u2029]/);
  });
});
