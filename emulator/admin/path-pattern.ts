/*
 * Fault paths are regular expressions posted by whoever drives the emulator, and they run on
 * every request: with the engine of RegExp, `^/(a|aa)+$` against a path of 38 `a`s and a `!`
 * blocks the server for seconds (backtracking). This matcher takes the same syntax (literals,
 * `.`, classes, `\d\w\s` and their negations, `^ $ \b \B`, groups, alternation, `* + ? {n,m}`)
 * and runs it as a Thompson automaton: every state at most once per character, so a match costs
 * at most (path length) x (pattern size) steps whatever the pattern. What such an automaton
 * cannot do (back-references, lookaround) is refused with the reason.
 */

/** Refusal of a pattern, with the reason (the admin endpoint answers 400 with it). */
export class PatternError extends Error {}

/**
 * States a pattern may compile to (a `{n,m}` spells out its operand n to m times): bounds each
 * request's cost. The patterns tests post take a few dozen; the worst a 500-state pattern costs
 * on the longest path Node takes (16 KB) is about a tenth of a second.
 */
const MAX_STATES = 500;

type CharTest = (code: number) => boolean;
type Assertion = "start" | "end" | "boundary" | "notBoundary";
type Escape = { kind: "char"; test: CharTest; code?: number } | { kind: "assert"; what: Assertion };
type Node =
  | { kind: "char"; test: CharTest }
  | { kind: "assert"; what: Assertion }
  | { kind: "seq"; items: Node[] }
  | { kind: "alt"; options: Node[] }
  | { kind: "repeat"; node: Node; min: number; max: number };

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const SPACES = new Set([9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
const isSpace: CharTest = (c) => SPACES.has(c) || (c >= 0x2000 && c <= 0x200a);
const isLineTerminator: CharTest = (c) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const not =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) throw new PatternError(`unexpected ) at ${this.at}`);
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.at + offset];
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === "|") {
      this.at += 1;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: "alt", options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.peek() !== "|" && this.peek() !== ")") {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0]! : { kind: "seq", items };
  }

  private quantified(node: Node): Node {
    let min: number;
    let max: number;
    const next = this.peek();
    if (next === "*") [min, max] = [0, Infinity];
    else if (next === "+") [min, max] = [1, Infinity];
    else if (next === "?") [min, max] = [0, 1];
    else if (next === "{") {
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (!braces) return node; // a literal `{`, as RegExp takes it
      min = Number(braces[1]);
      max = braces[2] === undefined ? min : braces[3] === "" ? Infinity : Number(braces[3]);
      this.at += braces[0].length - 1;
    } else return node;
    this.at += 1;
    if (this.peek() === "?") this.at += 1; // lazy or greedy: the same for whether it matches
    return { kind: "repeat", node, min, max };
  }

  private atom(): Node {
    const char = this.source[this.at]!;
    this.at += 1;
    switch (char) {
      case ".":
        return { kind: "char", test: not(isLineTerminator) };
      case "^":
        return { kind: "assert", what: "start" };
      case "$":
        return { kind: "assert", what: "end" };
      case "[":
        return { kind: "char", test: this.characterClass() };
      case "(":
        return this.group();
      case "\\":
        return this.escape(false);
      default:
        return literal(char.charCodeAt(0));
    }
  }

  private group(): Node {
    if (this.peek() === "?") {
      const kind = this.source.slice(this.at, this.at + 3);
      if (kind.startsWith("?:")) this.at += 2;
      else if (kind === "?<=" || kind === "?<!" || kind.startsWith("?=") || kind.startsWith("?!")) {
        throw new PatternError("lookaround assertions ((?=, (?!, (?<=, (?<!) cannot be matched in linear time");
      } else if (kind.startsWith("?<")) {
        const end = this.source.indexOf(">", this.at);
        this.at = end + 1; // a named group: the name does not matter here
      }
    }
    const inner = this.alternation();
    if (this.peek() !== ")") throw new PatternError("unterminated group");
    this.at += 1;
    return inner;
  }

  /** An escape outside a class (an atom) or inside one (`inClass`: `\b` is a backspace there). */
  private escape(inClass: boolean): Escape {
    const char = this.source[this.at];
    if (char === undefined) throw new PatternError("\\ at end of pattern");
    this.at += 1;
    switch (char) {
      case "d":
        return { kind: "char", test: isDigit };
      case "D":
        return { kind: "char", test: not(isDigit) };
      case "w":
        return { kind: "char", test: isWord };
      case "W":
        return { kind: "char", test: not(isWord) };
      case "s":
        return { kind: "char", test: isSpace };
      case "S":
        return { kind: "char", test: not(isSpace) };
      case "b":
        return inClass ? literal(8) : { kind: "assert", what: "boundary" };
      case "B":
        if (inClass) return literal(66);
        return { kind: "assert", what: "notBoundary" };
      case "t":
        return literal(9);
      case "n":
        return literal(10);
      case "v":
        return literal(11);
      case "f":
        return literal(12);
      case "r":
        return literal(13);
      case "0":
        if (isDigit(this.source.charCodeAt(this.at))) throw new PatternError("octal escapes are not supported");
        return literal(0);
      case "k":
        if (this.peek() === "<") throw new PatternError("back-references cannot be matched in linear time");
        return literal(107);
      case "c": {
        const letter = this.source.charCodeAt(this.at);
        if ((letter >= 65 && letter <= 90) || (letter >= 97 && letter <= 122)) {
          this.at += 1;
          return literal(letter % 32);
        }
        this.at -= 1; // `\c` without a letter is a backslash and a `c`
        return literal(92);
      }
      case "x":
      case "u": {
        const digits = char === "x" ? 2 : 4;
        const hex = this.source.slice(this.at, this.at + digits);
        if (hex.length === digits && /^[0-9a-fA-F]+$/.test(hex)) {
          this.at += digits;
          return literal(Number.parseInt(hex, 16));
        }
        return literal(char.charCodeAt(0));
      }
      default:
        if (/[1-9]/.test(char)) {
          if (inClass) throw new PatternError("octal escapes are not supported");
          throw new PatternError("back-references cannot be matched in linear time");
        }
        return literal(char.charCodeAt(0)); // an identity escape: `\/`, `\.`, `\-`, ...
    }
  }

  private characterClass(): CharTest {
    const negated = this.peek() === "^";
    if (negated) this.at += 1;
    const tests: CharTest[] = [];
    while (this.peek() !== "]") {
      if (this.at >= this.source.length) throw new PatternError("unterminated character class");
      const low = this.classAtom();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined && typeof low === "number") {
        this.at += 1;
        const high = this.classAtom();
        if (typeof high === "number") {
          tests.push((c) => c >= low && c <= high);
          continue;
        }
        // `[a-\d]`: RegExp (without the u flag) takes the `-` literally.
        tests.push(
          (c) => c === low,
          (c) => c === 45,
          high,
        );
        continue;
      }
      tests.push(typeof low === "number" ? (c) => c === low : low);
    }
    this.at += 1;
    const inClass: CharTest = (c) => tests.some((test) => test(c));
    return negated ? not(inClass) : inClass;
  }

  /** One element of a class: a code unit, or a test for `\d`-style escapes. */
  private classAtom(): number | CharTest {
    const char = this.source[this.at]!;
    this.at += 1;
    if (char !== "\\") return char.charCodeAt(0);
    const escaped = this.escape(true);
    if (escaped.kind !== "char") throw new PatternError("assertion inside a character class");
    return escaped.code ?? escaped.test;
  }
}

function literal(code: number): { kind: "char"; test: CharTest; code: number } {
  return { kind: "char", test: (c) => c === code, code };
}

// The automaton: a program of instructions (Pike's VM without captures).
type Instruction =
  | { op: "char"; test: CharTest }
  | { op: "split"; to: number[] }
  | { op: "jump"; to: number }
  | { op: "assert"; what: Assertion }
  | { op: "match" };

function compile(root: Node): Instruction[] {
  const program: Instruction[] = [];
  const emit = (instruction: Instruction): number => {
    if (program.length >= MAX_STATES)
      throw new PatternError(`pattern too large (more than ${MAX_STATES} states once its repetitions are spelled out)`);
    program.push(instruction);
    return program.length - 1;
  };
  // Nested repetitions of nothing (`((){2000}){2000}`) emit no state: count the visits as well.
  let visits = 0;
  const visit = (node: Node): void => {
    visits += 1;
    if (visits > MAX_STATES * 10) throw new PatternError(`pattern too large (more than ${MAX_STATES * 10} steps to compile)`);
    switch (node.kind) {
      case "char":
        emit({ op: "char", test: node.test });
        return;
      case "assert":
        emit({ op: "assert", what: node.what });
        return;
      case "seq":
        node.items.forEach(visit);
        return;
      case "alt": {
        const split = emit({ op: "split", to: [] });
        const jumps: { op: "jump"; to: number }[] = [];
        for (const option of node.options) {
          (program[split] as { to: number[] }).to.push(program.length);
          visit(option);
          const jump = { op: "jump" as const, to: -1 };
          emit(jump);
          jumps.push(jump);
        }
        for (const jump of jumps) jump.to = program.length;
        return;
      }
      case "repeat": {
        if (node.min > MAX_STATES || (node.max !== Infinity && node.max > MAX_STATES)) {
          throw new PatternError(`pattern too large (a repetition of more than ${MAX_STATES})`);
        }
        for (let i = 0; i < node.min; i += 1) visit(node.node);
        if (node.max === Infinity) {
          const loop = emit({ op: "split", to: [] });
          (program[loop] as { to: number[] }).to.push(program.length);
          visit(node.node);
          emit({ op: "jump", to: loop });
          (program[loop] as { to: number[] }).to.push(program.length);
          return;
        }
        const exits: { to: number[] }[] = [];
        for (let i = node.min; i < node.max; i += 1) {
          const split = { op: "split" as const, to: [] as number[] };
          emit(split);
          split.to.push(program.length);
          exits.push(split);
          visit(node.node);
        }
        for (const split of exits) split.to.push(program.length);
        return;
      }
    }
  };
  visit(root);
  emit({ op: "match" });
  return program;
}

/** A compiled fault path: `test(path)` answers what `new RegExp(source).test(path)` would. */
export interface PathPattern {
  test(path: string): boolean;
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
  const program = compile(new Parser(source).parse());
  return { test: (path) => run(program, path) };
}

function run(program: Instruction[], text: string): boolean {
  const size = program.length;
  let current = new Int32Array(size);
  let next = new Int32Array(size);
  let currentCount = 0;
  let nextCount = 0;
  // A state is in a list at most once per position: `seen[pc] === generation`.
  const seen = new Int32Array(size).fill(-1);
  const stack: number[] = [];
  const wordAt = (position: number) => position >= 0 && position < text.length && isWord(text.charCodeAt(position));

  let matched = false;
  // Follows jumps, splits and assertions from `start` at `position`; adds the states that read a
  // character to the list and returns its new length; sets `matched` when the match is reached.
  const add = (list: Int32Array, count: number, start: number, position: number, generation: number): number => {
    stack.push(start);
    while (stack.length > 0) {
      const pc = stack.pop()!;
      if (seen[pc] === generation) continue;
      seen[pc] = generation;
      const instruction = program[pc]!;
      switch (instruction.op) {
        case "jump":
          stack.push(instruction.to);
          break;
        case "split":
          for (let i = instruction.to.length - 1; i >= 0; i -= 1) stack.push(instruction.to[i]!);
          break;
        case "assert": {
          const holds =
            instruction.what === "start"
              ? position === 0
              : instruction.what === "end"
                ? position === text.length
                : (wordAt(position - 1) !== wordAt(position)) === (instruction.what === "boundary");
          if (holds) stack.push(pc + 1);
          break;
        }
        case "match":
          matched = true;
          break;
        case "char":
          list[count++] = pc;
          break;
      }
    }
    return count;
  };

  for (let position = 0; position <= text.length; position += 1) {
    // A search, as RegExp.test: a new attempt starts at every position.
    currentCount = add(current, currentCount, 0, position, position);
    if (matched) return true;
    if (position === text.length) return false;
    const code = text.charCodeAt(position);
    nextCount = 0;
    for (let i = 0; i < currentCount; i += 1) {
      const pc = current[i]!;
      const instruction = program[pc] as { op: "char"; test: CharTest };
      if (!instruction.test(code)) continue;
      nextCount = add(next, nextCount, pc + 1, position + 1, position + 1);
      if (matched) return true;
    }
    [current, next] = [next, current];
    currentCount = nextCount;
  }
  return false;
}
