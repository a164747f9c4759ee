/**
 * One dispatch, read to the end: the answer (status, headers, the whole body) or the error, with
 * the context the layers reported in `onRequestStart`. The JSON API's bodies are small, so every
 * layer that must see a whole answer (the retry layer decides on it, the client parses it) reads
 * it with this, and hands an answer on with {@link replay}.
 */
import type { Dispatcher } from "undici";

/** An HTTP answer, read to the end. */
export interface Answer {
  status: number;
  /** Lower-cased names, repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
}

/** What one dispatch came to, with the context of its last `onRequestStart`. */
export type Exchange = ({ answer: Answer } | { error: Error }) & { context: Record<string, unknown> | undefined };

/** Options of one dispatch, as the layers pass them down. */
export type DispatchOptions = Dispatcher.DispatchOptions;

/** Something with undici's `dispatch` (a dispatcher, or the next layer down). */
export type Dispatch = (options: DispatchOptions, handler: Dispatcher.DispatchHandler) => boolean;

/** Dispatches once and reads the answer to the end; never rejects. */
export function exchange(dispatch: Dispatch, options: DispatchOptions): Promise<Exchange> {
  return new Promise((resolve) => {
    const collector = new Collector(resolve);
    try {
      dispatch(options, collector);
    } catch (error) {
      resolve({ error: asError(error), context: collector.context });
    }
  });
}

/** Hands a whole answer to a handler: start, the body in one chunk, end. */
export function replay(handler: Dispatcher.DispatchHandler, controller: Dispatcher.DispatchController, answer: Answer): void {
  handler.onResponseStart?.(controller, answer.status, answer.headers, "");
  if (answer.body.length > 0) handler.onResponseData?.(controller, answer.body);
  handler.onResponseEnd?.(controller, {});
}

/** Lower-cased names, repeated headers joined with `, `. */
export function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/**
 * A controller for a layer that answers from what it read (the body is already whole, so pause
 * and resume have nothing to hold); an abort is remembered for the layer to act on.
 */
export class SettledController implements Dispatcher.DispatchController {
  #reason: Error | null = null;
  #paused = false;
  get aborted(): boolean {
    return this.#reason !== null;
  }
  get paused(): boolean {
    return this.#paused;
  }
  get reason(): Error | null {
    return this.#reason;
  }
  abort(reason: Error): void {
    this.#reason ??= reason;
  }
  pause(): void {
    this.#paused = true;
  }
  resume(): void {
    this.#paused = false;
  }
}

class Collector implements Dispatcher.DispatchHandler {
  context: Record<string, unknown> | undefined;
  #status = 0;
  #headers: Record<string, string> = {};
  readonly #chunks: Buffer[] = [];

  constructor(private readonly settle: (exchange: Exchange) => void) {}

  onRequestStart(_controller: Dispatcher.DispatchController, context: unknown): void {
    this.context = context as Record<string, unknown> | undefined;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (status < 200) return; // 1xx: informational, the answer is still to come
    this.#status = status;
    this.#headers = flattenHeaders(headers);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    const body = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks);
    this.settle({ answer: { status: this.#status, headers: this.#headers, body }, context: this.context });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.settle({ error, context: this.context });
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
