/**
 * Text from outside as it may appear in a generated program. Everything forge-adopt writes that it
 * did not make itself (names, descriptions and paths the forge gives; every string of a Terraform
 * state, which another team may have written) goes through one of these functions, one per target
 * language, by where it goes: a comment, a string, an identifier, a key, a shell word. None lets a
 * string end its position: a newline cannot end a comment, a quote cannot end a string, a `${` cannot
 * become a Pulumi YAML interpolation, a key cannot become a Pulumi YAML function.
 */

/**
 * Characters never written as they are: C0 and C1 controls (newline, CR, NUL, ESC, NEL), the
 * Unicode line and paragraph separators (line terminators in JavaScript, breaks in some YAML
 * parsers), bidirectional and invisible format characters (which make text read other than it
 * runs), byte order marks and non-characters, and lone surrogates.
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The same, for a test of one string. */
const HAS_UNSAFE = new RegExp(UNSAFE.source);

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escaped(character: string): string {
  return NAMED[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * One line of text with every unsafe character shown as an escape (`\n`, `\u2028`): for comments
 * and for the lines the command prints (a terminal takes ESC sequences as commands).
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, escaped);
}

/**
 * Text as inline code in markdown (a merge request comment, a job summary): nothing in it becomes
 * markup (a link, an image, HTML, a heading) or a mention or reference the forge notifies
 * (`@all`, `#12`), on one line, and in a table cell a `|` does not end the cell. Empty text is empty.
 */
export function markdownCode(text: string): string {
  if (text === "") return "";
  const line = printable(text).replace(/\|/g, "\\|");
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** A double-quoted string, valid as a JSON, JavaScript, TypeScript and YAML string alike: JSON's
 *  escapes, and the characters JSON leaves as they are (U+2028, C1 controls, bidi controls) escaped too. */
function quoted(text: string): string {
  return JSON.stringify(text).replace(UNSAFE, escaped);
}

/** Words TypeScript does not take as a variable's name (reserved, strict-mode and contextual ones that a `const` cannot bind). */
const RESERVED_WORDS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with implements interface let package private " +
    "protected public static yield await arguments eval undefined"
  ).split(" "),
);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Where a string goes in a TypeScript program. */
export type TypeScriptPosition = "comment" | "string" | "identifier" | "property";

/**
 * A string for a TypeScript program, by where it goes:
 * - `comment`: a whole `// ...` line comment (one line, whatever the text holds);
 * - `string`: a string literal;
 * - `identifier`: a variable's name, made of the text's letters and digits (`acme-web agent` →
 *   `acmeWebAgent`), never a reserved word;
 * - `property`: an object literal's key, bare when it is a name, a string literal otherwise (and
 *   `["__proto__"]` for that one).
 */
export function typescript(text: string, position: TypeScriptPosition): string {
  switch (position) {
    case "comment":
      return text === "" ? "//" : `// ${printable(text)}`;
    case "string":
      return quoted(text);
    case "identifier": {
      const name = camel(text);
      return name === "" ? "_" : RESERVED_WORDS.has(name) ? `${name}_` : name;
    }
    case "property":
      // `__proto__: x`, bare or quoted, sets an object literal's prototype; computed, it is a key.
      return text === "__proto__" ? `[${quoted(text)}]` : IDENTIFIER.test(text) ? text : quoted(text);
  }
}

/** `acme-web agent` → `acmeWebAgent`; a leading digit gets a prefix. Only ASCII letters and digits remain. */
export function camel(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  const joined = words
    .map((word, index) => (index === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : word.charAt(0).toUpperCase() + word.slice(1)))
    .join("");
  return /^[0-9]/.test(joined) ? `r${joined}` : joined;
}

/** Words YAML would not read back as the string they spell (YAML 1.1's booleans and nulls too). */
const YAML_RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;

/** Plain (unquoted) YAML only from a letter or a slash on (a digit, a dot or a sign could read as a
 *  number), with no character YAML or Pulumi YAML gives a meaning, and no space at the end. */
const YAML_PLAIN = /^[A-Za-z_/][A-Za-z0-9 _./@()+,;=-]*$/;

/** The longest key YAML reads on its line (YAML 1.2, *implicit keys*). */
const YAML_KEY_LENGTH = 1024;

/** Where a string goes in a Pulumi YAML program. */
export type YamlPosition = "comment" | "value" | "key" | "literal";

/**
 * A string for a Pulumi YAML program, by where it goes:
 * - `comment`: a whole `# ...` comment (one line, whatever the text holds);
 * - `value`: a scalar the YAML host evaluates (a property, a resource option, a function's
 *   argument): each `$` doubled, as Pulumi YAML reads `$$` as `$` and `${...}` as an interpolation;
 * - `key`: a key of a property's object, evaluated like a value; a key starting with `fn::`
 *   (which would make its object a function call, such as `fn::readFile`) is refused, as Pulumi
 *   YAML has no way to write it literally, and so is one longer than YAML reads on its line;
 * - `literal`: a scalar the Pulumi CLI reads as it is (the project's name, a plugin's path, a
 *   resource's logical name).
 * Plain when it reads back as the same string, double-quoted otherwise.
 */
export function yaml(text: string, position: YamlPosition): string {
  if (position === "comment") return text === "" ? "#" : `# ${printable(text)}`;
  if (position === "key" && /^fn::/i.test(text)) {
    throw new Error(
      `forge-adopt cannot write the key ${quoted(text)} in Pulumi YAML: an object with a key starting with "fn::" is a function call there`,
    );
  }
  const evaluated = position === "literal" ? text : text.replaceAll("$", () => "$$");
  const rendered = YAML_PLAIN.test(evaluated) && !evaluated.endsWith(" ") && !YAML_RESERVED.test(evaluated) ? evaluated : quoted(evaluated);
  if (position === "key" && rendered.length > YAML_KEY_LENGTH)
    throw new Error(`forge-adopt cannot write a key of ${rendered.length} characters in YAML: a key is at most ${YAML_KEY_LENGTH}`);
  return rendered;
}

/**
 * A word for a POSIX shell: bare when it holds nothing a shell reads, single-quoted otherwise, and
 * in ANSI-C quotes (`$'a\nb'`, bash, zsh, ksh and POSIX.1-2024 sh) when it holds a character that
 * must not be written raw, each such character as its UTF-8 bytes (`\xe2\x80\xa8`), which every
 * such shell reads whatever its locale. Undefined for text holding NUL, which no argument can.
 */
export function shellWord(text: string): string | undefined {
  if (text.includes("\u0000")) return undefined;
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  if (!HAS_UNSAFE.test(text)) return `'${text.replaceAll("'", "'\\''")}'`;
  const bytes = (character: string) =>
    NAMED[character] ?? [...Buffer.from(character, "utf8")].map((byte) => `\\x${byte.toString(16).padStart(2, "0")}`).join("");
  return `$'${text.replace(/[\\']/g, (character) => `\\${character}`).replace(UNSAFE, bytes)}'`;
}
