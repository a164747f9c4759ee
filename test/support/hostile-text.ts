/**
 * Text from outside at its worst, for the tests of forge-adopt's escaping: strings that would end a
 * comment, a string or a line, start a YAML structure or a Pulumi YAML interpolation, hide what text
 * does, or run code if any reached a program as written. `CANARY` stands for a file the injected
 * code would write: a test replaces it with a path it checks afterwards.
 */

/** Stands for the path of the file injected code would write. */
export const CANARY = "CANARY_FILE";

/** Code that leaves a trace if it runs, in TypeScript, and a resource a YAML program would declare if this text became YAML. */
const TS_PAYLOAD = `require("node:fs").writeFileSync(${JSON.stringify(CANARY)}, "injected"); process.exit(0);`;
const YAML_PAYLOAD = "  injected:\n    type: forge:index:BroadcastMessage\n    properties:\n      message: injected";

/** Each hostile string by what it tries. */
export const HOSTILE: Readonly<Record<string, string>> = {
  newline: `nl\n${TS_PAYLOAD}\n${YAML_PAYLOAD}\n`,
  carriageReturn: `cr\r${TS_PAYLOAD}\r`,
  lineSeparator: `ls\u2028${TS_PAYLOAD}\u2028`,
  paragraphSeparator: `ps\u2029${TS_PAYLOAD}\u2029`,
  nextLine: `nel\u0085${YAML_PAYLOAD}`,
  blockComment: `bc */ ${TS_PAYLOAD} /*`,
  hash: `hash # not a comment #`,
  interpolation: "dollar ${forge:token} ${hostile-label.name} $${x} $$ a$b x$",
  functionCall: "fn::readFile: /etc/passwd",
  yamlIndicators: "yaml: - item | & anchor ! tag * alias ? key {a: b} [x] % @ ` > --- ...",
  nul: "nul\u0000byte",
  quotes: `quotes ' " \` '\\''`,
  backslashes: "back\\slash \\n \\u0041 \\",
  escape: "esc \u001b[31mred\u001b]0;title\u0007",
  bidi: "bidi \u202eevil\u202c \u2066x\u2069",
  invisible: "zw\u200bsp\ufeffbom",
  long: `long ${"0123456789abcdef\n${x}# ".repeat(450)}`.slice(0, 10_240),
};

/** The hostile strings, with `CANARY` replaced by `canary`. */
export function hostileStrings(canary: string): Record<string, string> {
  return Object.fromEntries(Object.entries(HOSTILE).map(([name, text]) => [name, text.replaceAll(CANARY, canary)]));
}

/**
 * Characters that must never appear raw in a generated program: controls (but newline),
 * line and paragraph separators, bidi and invisible format characters.
 */
export const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/u;
