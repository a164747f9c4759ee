/**
 * What a program forge-adopt wrote declares, read the way its language reads it: the TypeScript
 * program through the TypeScript parser, the Pulumi YAML program through a YAML parser and Pulumi
 * YAML's own rules (`$$` is `$`, `${...}` is an expression, a one-key object whose key starts with
 * `fn::` is a function call). Anything else in a program (a statement that is not an import or a
 * declaration, an expression that is not a value, an interpolation, a function but `fn::readFile`)
 * fails the read with what it found: text from outside that became code.
 */
import ts from "typescript";
import { parseDocument } from "yaml";

/** A value of a declaration's inputs, with what the language evaluates named as such. */
export type Value = string | number | boolean | null | Value[] | { [key: string]: Value } | Special;
type Special = { secret: string } | { file: string } | { reference: { target: string; output: string } };

/** One resource a program declares. */
export interface Declared {
  /** The resource's type name: `GroupLabel`. */
  type: string;
  name: string;
  inputs: Record<string, Value>;
  import: string;
}

/** A plain object that takes any key as data (`__proto__` too). */
function record(entries: [string, Value][]): Record<string, Value> {
  const result: Record<string, Value> = {};
  for (const [key, value] of entries) Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
  return result;
}

const ALLOWED_IMPORTS = new Set(["node:fs", "node:path", "@pulumi/pulumi", "pulumi-forge", "pulumi-forge/plugin"]);

/** The resources of a TypeScript program, in order; throws on a syntax error or on any statement or expression a generated program does not hold. */
export function typescriptDeclarations(text: string): Declared[] {
  const source = ts.createSourceFile("index.ts", text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const syntax = (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  if (syntax.length > 0)
    throw new Error(`syntax: ${syntax.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")).join("; ")}`);
  const variables = new Map<string, string>();
  const declared: Declared[] = [];
  const fail = (node: ts.Node, what: string): never => {
    throw new Error(`${what}: ${node.getText(source).slice(0, 200)}`);
  };

  const evaluate = (node: ts.Expression): Value => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return Number(node.text);
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand))
      return -Number(node.operand.text);
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (node.kind === ts.SyntaxKind.NullKeyword) return null;
    if (ts.isArrayLiteralExpression(node)) return node.elements.map(evaluate);
    if (ts.isObjectLiteralExpression(node)) {
      return record(
        node.properties.map((property): [string, Value] => {
          if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)))
            return fail(property, "not a property");
          return [property.name.text, evaluate(property.initializer)];
        }),
      );
    }
    if (
      (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      variables.has(node.expression.text)
    ) {
      const output = ts.isPropertyAccessExpression(node)
        ? node.name.text
        : ts.isStringLiteral(node.argumentExpression)
          ? node.argumentExpression.text
          : fail(node, "not an output");
      return { reference: { target: variables.get(node.expression.text)!, output } };
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      const [first, second] = node.arguments;
      if (callee === "config.requireSecret" && node.arguments.length === 1 && first && ts.isStringLiteral(first))
        return { secret: first.text };
      if (callee === "pulumi.output" && node.arguments.length === 1 && first) return evaluate(first);
      if (
        callee === "readFileSync" &&
        first &&
        ts.isCallExpression(first) &&
        first.expression.getText(source) === "join" &&
        second &&
        ts.isStringLiteral(second)
      ) {
        const [dir, path] = first.arguments;
        if (dir && ts.isIdentifier(dir) && dir.text === "__dirname" && path && ts.isStringLiteral(path) && first.arguments.length === 2)
          return { file: path.text };
      }
    }
    return fail(node, "not a value");
  };

  const declaration = (node: ts.Expression, variable?: string): void => {
    if (
      !ts.isNewExpression(node) ||
      !ts.isPropertyAccessExpression(node.expression) ||
      node.expression.expression.getText(source) !== "forge"
    )
      return void fail(node, "not a declaration");
    const [name, inputs, options] = (node.arguments ?? []).map(evaluate);
    if (typeof name !== "string" || node.arguments?.length !== 3) return void fail(node, "not a declaration's arguments");
    const opts = options as Record<string, Value>;
    if (Object.keys(opts).join() !== "import" || typeof opts["import"] !== "string") return void fail(node, "not the import option");
    if (variable !== undefined && variables.has(variable)) return void fail(node, `a second variable ${variable}`);
    if (variable !== undefined) variables.set(variable, name);
    declared.push({ type: node.expression.name.text, name, inputs: inputs as Record<string, Value>, import: opts["import"] });
  };

  for (const statement of source.statements) {
    if (
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      ALLOWED_IMPORTS.has(statement.moduleSpecifier.text)
    )
      continue;
    if (ts.isExpressionStatement(statement)) {
      declaration(statement.expression);
      continue;
    }
    if (
      ts.isVariableStatement(statement) &&
      statement.declarationList.flags & ts.NodeFlags.Const &&
      statement.declarationList.declarations.length === 1
    ) {
      const [item] = statement.declarationList.declarations;
      if (item && ts.isIdentifier(item.name) && item.initializer) {
        if (item.name.text === "config" && item.initializer.getText(source) === "new pulumi.Config()") continue;
        declaration(item.initializer, item.name.text);
        continue;
      }
    }
    fail(statement, "not a statement of a generated program");
  }
  return declared;
}

/** A Pulumi YAML string as the YAML host reads it: `$$` is `$`; a whole `${a.b}` is a reference, `${key}` a config value; any other `${` fails. */
function pulumiString(text: string): Value {
  const whole = /^\$\{([^}$]+)\}$/.exec(text);
  if (whole) {
    const [target, output] = whole[1]!.split(".");
    return output === undefined ? { secret: target! } : { reference: { target: target!, output } };
  }
  let result = "";
  for (let index = 0; index < text.length; index++) {
    if (text.startsWith("$$", index)) {
      result += "$";
      index++;
    } else if (text.startsWith("${", index)) {
      throw new Error(`an interpolation: ${text.slice(0, 200)}`);
    } else {
      result += text[index];
    }
  }
  return result;
}

function pulumiValue(value: unknown): Value {
  if (typeof value === "string") return pulumiString(value);
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map(pulumiValue);
  const entries = Object.entries(value as Record<string, unknown>);
  const functions = entries.filter(([key]) => /^fn::/i.test(key));
  if (entries.length === 1 && functions.length === 1) {
    const [[key, argument]] = entries as [[string, unknown]];
    if (key === "fn::readFile" && typeof argument === "string") return { file: (pulumiString(argument) as string).replace(/^\.\//, "") };
    throw new Error(`a function: ${key}`);
  }
  return record(
    entries.map(([key, item]) => {
      const name = pulumiString(key);
      if (typeof name !== "string") throw new Error(`an expression as a key: ${key}`);
      return [name, pulumiValue(item)];
    }),
  );
}

/** The top-level keys and resources of a Pulumi YAML program; throws on a YAML error, an interpolation or a function where values go. */
export function yamlDeclarations(text: string): { keys: string[]; resources: Declared[] } {
  const document = parseDocument(text, { uniqueKeys: true, strict: true, prettyErrors: false });
  if (document.errors.length > 0) throw new Error(`YAML: ${document.errors.map((error) => error.message).join("; ")}`);
  const program = document.toJS({ maxAliasCount: 0 }) as Record<string, unknown>;
  const resources = Object.entries(
    (program["resources"] ?? {}) as Record<string, { type: string; properties?: unknown; options?: Record<string, unknown> }>,
  ).map(([name, resource]): Declared => {
    const extra = Object.keys(resource).filter((key) => !["type", "properties", "options"].includes(key));
    const options = Object.keys(resource.options ?? {});
    if (extra.length > 0 || options.join() !== "import") throw new Error(`resource ${name} has ${[...extra, ...options].join(", ")}`);
    const type = /^forge:index:(\w+)$/.exec(resource.type)?.[1];
    if (!type) throw new Error(`resource ${name} is of type ${resource.type}`);
    const importId = pulumiString(String(resource.options!["import"]));
    if (typeof importId !== "string") throw new Error(`resource ${name}'s import is an expression`);
    return {
      type,
      name,
      inputs: (resource.properties === undefined ? {} : pulumiValue(resource.properties)) as Record<string, Value>,
      import: importId,
    };
  });
  return { keys: Object.keys(program), resources };
}
