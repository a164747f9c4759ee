/**
 * Protobuf's wire primitives, as the plugin's codec (protobuf.ts) needs them: varints, doubles,
 * UTF-8 strings, bytes, and length-delimited nesting. Written here rather than taken from
 * protobufjs, whose minimal build cost the plugin about 11 ms at each of its two starts per YAML
 * operation (the engine's and the YAML host's), against the peer's 40 ms start in all
 * (docs/performance.md); what it would add (64-bit integers, floats, groups' contents, the
 * browser) the provider protocol's messages do not use.
 */

/** Reads a message's bytes, front to back. A read past the end throws, as a truncated message does. */
export class Reader {
  pos = 0;
  readonly len: number;

  private constructor(private readonly buf: Buffer) {
    this.len = buf.length;
  }

  static create(bytes: Uint8Array): Reader {
    return new Reader(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  private need(count: number): void {
    if (this.pos + count > this.len) throw new RangeError(`protobuf: ${count} bytes past the end of a ${this.len}-byte message`);
  }

  /** A varint's low 32 bits, unsigned; the rest of a longer varint (up to 10 bytes) is consumed. */
  uint32(): number {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      this.need(1);
      byte = this.buf[this.pos++]!;
      if (shift < 32) value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80 && shift < 70);
    return value >>> 0;
  }

  /** A varint as a signed 32-bit integer (an enum, an int32: a negative one is sent in 10 bytes). */
  int32(): number {
    return this.uint32() | 0;
  }

  bool(): boolean {
    return this.uint32() !== 0;
  }

  double(): number {
    this.need(8);
    const value = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return value;
  }

  /** A length-delimited field's bytes (a view, not a copy). */
  bytes(): Buffer {
    const length = this.uint32();
    this.need(length);
    const value = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return value;
  }

  string(): string {
    const length = this.uint32();
    this.need(length);
    const value = this.buf.toString("utf8", this.pos, this.pos + length);
    this.pos += length;
    return value;
  }

  /** Skips a field of the wire type, as a reader skips fields it does not know. */
  skipType(wireType: number): void {
    switch (wireType) {
      case 0:
        this.uint32();
        return;
      case 1:
        this.need(8);
        this.pos += 8;
        return;
      case 2: {
        const length = this.uint32();
        this.need(length);
        this.pos += length;
        return;
      }
      case 3: {
        // A group, to its end tag.
        let next: number;
        while ((next = this.uint32() & 7) !== 4) this.skipType(next);
        return;
      }
      case 5:
        this.need(4);
        this.pos += 4;
        return;
      default:
        throw new Error(`protobuf: wire type ${wireType} at offset ${this.pos}`);
    }
  }
}

/** The bytes a varint of `value` (unsigned 32 bits) takes. */
function varintSize(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

/**
 * Writes a message into one growing buffer. A nested message is `fork()`ed, written, and closed
 * with `ldelim()`, which puts its length before it (moving its bytes by the length's size: a
 * property bag is a few hundred bytes, a few levels deep).
 */
export class Writer {
  private buf = Buffer.allocUnsafe(512);
  private pos = 0;
  private readonly forks: number[] = [];

  static create(): Writer {
    return new Writer();
  }

  private room(count: number): void {
    if (this.pos + count <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + count));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** Writes `value` as a varint at `at` (room made by the caller); the offset after it. */
  private varintAt(at: number, value: number): number {
    let rest = value >>> 0;
    while (rest > 0x7f) {
      this.buf[at++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.buf[at++] = rest;
    return at;
  }

  uint32(value: number): this {
    this.room(5);
    this.pos = this.varintAt(this.pos, value);
    return this;
  }

  /** A signed 32-bit integer: a negative one as its 64-bit two's complement (10 bytes), as protobuf says. */
  int32(value: number): this {
    if (value >= 0) return this.uint32(value);
    this.room(10);
    let low = value >>> 0;
    let high = 0xffffffff;
    while (high !== 0 || low > 0x7f) {
      this.buf[this.pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    this.buf[this.pos++] = low;
    return this;
  }

  bool(value: boolean): this {
    return this.uint32(value ? 1 : 0);
  }

  double(value: number): this {
    this.room(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
    return this;
  }

  bytes(value: Uint8Array): this {
    this.uint32(value.length);
    this.room(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
    return this;
  }

  string(value: string): this {
    const length = Buffer.byteLength(value, "utf8");
    this.uint32(length);
    this.room(length);
    this.pos += this.buf.write(value, this.pos, length, "utf8");
    return this;
  }

  /** Starts a length-delimited part. */
  fork(): this {
    this.forks.push(this.pos);
    return this;
  }

  /** Ends the part the last `fork()` started: its length goes before it. */
  ldelim(): this {
    const start = this.forks.pop();
    if (start === undefined) throw new Error("protobuf: ldelim() without fork()");
    const length = this.pos - start;
    const prefix = varintSize(length);
    this.room(prefix);
    this.buf.copyWithin(start + prefix, start, this.pos);
    this.varintAt(start, length);
    this.pos += prefix;
    return this;
  }

  /** The message's bytes (a view of the buffer: the writer is not used after). */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}
