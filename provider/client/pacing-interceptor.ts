/**
 * The rate-limit pacer (pacer.ts) as an undici interceptor, below the retry layer so that every
 * attempt waits its turn: a request leaves once the pacer lets it, and each answer's headers
 * (`RateLimit-Remaining`, `RateLimit-Reset`) are shown to the pacer as they arrive. undici has no
 * pacing of its own; its `connections` cap per origin (the Agent's) bounds what is in flight.
 */
import type { Dispatcher } from "undici";
import { flattenHeaders, SettledController, type Dispatch, type DispatchOptions } from "./exchange";
import type { RateLimitPacer } from "./pacer";

/** Paces every dispatch through `pacer`. */
export function pacingInterceptor(pacer: RateLimitPacer): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function pacing(options: DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      pacer
        .acquire()
        .then(() => (dispatch as Dispatch)(options, new Observed(handler, pacer)))
        // dispatch threw (invalid options): the request fails with that error.
        .catch((error: unknown) => handler.onResponseError?.(new SettledController(), error as Error));
      return true;
    };
}

/** Passes everything on; shows the answer's headers to the pacer first. (undici's DecoratorHandler is deprecated.) */
class Observed implements Dispatcher.DispatchHandler {
  constructor(
    private readonly handler: Dispatcher.DispatchHandler,
    private readonly pacer: RateLimitPacer,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.handler.onRequestStart?.(controller, context);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
    message?: string,
  ): void {
    if (status >= 200) this.pacer.observe(flattenHeaders(headers), status);
    this.handler.onResponseStart?.(controller, status, headers, message);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: Record<string, string | string[] | undefined>): void {
    this.handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.handler.onResponseError?.(controller, error);
  }
}
