/**
 * A moved project answers GET with 301 and its new address: this undici interceptor reads it
 * there, on the same forge only and a few hops at most; then the 301 itself goes up (and is
 * reported as an error). Other methods get 405 from the forge and are not followed.
 *
 * Why not undici's `interceptors.redirect`: it follows every 3xx for every method (a POST turned
 * into a GET on 301/302), follows other origins keeping all headers but `Authorization`/`Cookie`
 * (the `PRIVATE-TOKEN` would leave with the request), and fails with "Redirect loop detected" on
 * a Location it has seen instead of handing the last 301 up. Here a Location on another origin
 * is refused with a message that says why (see ForgeTarget.fromUrl).
 */
import type { Dispatcher } from "undici";
import type { Dispatch, DispatchOptions } from "./exchange";
import type { ForgeTarget, Prepared } from "./target";

/** Settings of the layer, per client. */
export interface RedirectLayerOptions {
  /** The forge: Locations elsewhere are refused. */
  target: ForgeTarget;
  /** Hops followed before the 301 goes up. */
  maxRedirects: number;
}

/** Follows a GET's 301 on the same forge (see the module's comment). */
export function redirectInterceptor(layer: RedirectLayerOptions): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function following(options: DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      if (options.method !== "GET" || layer.maxRedirects <= 0) return dispatch(options, handler);
      return dispatch(options, new Moved(dispatch as Dispatch, options, handler, layer));
    };
}

/** One GET across its hops: a 301's answer is swallowed and the request sent to its Location. */
class Moved implements Dispatcher.DispatchHandler {
  #hops = 0;
  /** Where the current hop's 301 points, once its answer has started. */
  #next: Prepared | undefined;
  /** Why the current hop's 301 is not followed (another origin, a malformed Location). */
  #refused: Error | undefined;

  constructor(
    private readonly dispatch: Dispatch,
    private options: DispatchOptions,
    private readonly handler: Dispatcher.DispatchHandler,
    private readonly layer: RedirectLayerOptions,
  ) {}

  /** Each hop's start goes up; after a 301, its context says where the request went (`movedTo`, the wire path). */
  onRequestStart(controller: Dispatcher.DispatchController, context: Record<string, unknown> | undefined): void {
    this.#next = undefined;
    this.#refused = undefined;
    this.handler.onRequestStart?.(controller, this.#hops > 0 ? { ...context, movedTo: this.options.path } : context);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
    message?: string,
  ): void {
    const location = [headers["location"]].flat()[0];
    if (status === 301 && location && this.#hops < this.layer.maxRedirects) {
      const { target } = this.layer;
      try {
        const moved = new URL(location, target.origin + this.options.path).href;
        this.#next = target.fromUrl(moved, target.displayPath(this.options.path), "redirect");
      } catch (error) {
        this.#refused = error as Error;
      }
      return;
    }
    this.handler.onResponseStart?.(controller, status, headers, message);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.#next && !this.#refused) this.handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: Record<string, string | string[] | undefined>): void {
    if (this.#refused) {
      this.handler.onResponseError?.(controller, this.#refused);
    } else if (this.#next) {
      this.#hops += 1;
      this.options = { ...this.options, path: this.#next.target };
      // The next hop leaves a turn later, when undici has handed the socket back to its pool.
      setImmediate(() => {
        try {
          this.dispatch(this.options, this);
        } catch (error) {
          this.handler.onResponseError?.(controller, error as Error);
        }
      });
    } else {
      this.handler.onResponseEnd?.(controller, trailers);
    }
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.handler.onResponseError?.(controller, error);
  }
}
