/*
 * Fault paths are regular expressions posted by whoever drives the emulator, and they run on
 * every request: with the engine of RegExp, `^/(a|aa)+$` against a path of 38 `a`s and a `!`
 * blocks the server for seconds (backtracking). re2js, a port of RE2, takes RegExp's syntax
 * (`RE2JS.translateRegExp`) and matches in time linear in the path whatever the pattern, with
 * RE2's own bounds on a pattern's size (a repeat of at most 1,000). What no linear-time engine
 * can do, back-references and lookaround, is refused with the reason. Where RE2 differs from
 * RegExp, on paths it hardly matters: `\s` is ASCII white space, `.` also matches `\r`.
 */
import { RE2JS } from "re2js";

/** Refusal of a pattern, with the reason (the admin endpoint answers 400 with it). */
export class PatternError extends Error {}

/** A compiled fault path: `test(path)` answers what `new RegExp(source).test(path)` would. */
export interface PathPattern {
  test(path: string): boolean;
}

/** What a linear-time matcher cannot do, found outside escapes and character classes. */
function unsupported(source: string): string | undefined {
  let inClass = false;
  for (let at = 0; at < source.length; at += 1) {
    const char = source[at]!;
    if (char === "\\") {
      const next = source[at + 1] ?? "";
      if (!inClass && (/[1-9]/.test(next) || (next === "k" && source[at + 2] === "<"))) return "a back-reference";
      at += 1;
    } else if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    else if (!inClass && /^\(\?<?[=!]/.test(source.slice(at, at + 4))) return "lookaround";
  }
  return undefined;
}

/**
 * Compiles a fault's path pattern. Throws {@link PatternError} with the reason for a pattern
 * that is not a valid regular expression or uses what cannot be matched in linear time.
 */
export function compilePathPattern(source: string): PathPattern {
  try {
    new RegExp(source); // the syntax and its errors are RegExp's own; it is never run
  } catch (error) {
    throw new PatternError(`not a valid regular expression (${error instanceof Error ? error.message : String(error)})`);
  }
  const refused = unsupported(source);
  if (refused) throw new PatternError(`${refused} cannot be matched in linear time: refused`);
  try {
    const pattern = RE2JS.compile(RE2JS.translateRegExp(source));
    return { test: (path) => pattern.test(path) };
  } catch (error) {
    throw new PatternError(`not matched in linear time (${error instanceof Error ? error.message : String(error)})`);
  }
}
