/**
 * The retry layer as an undici interceptor: each attempt is dispatched to the layer below and
 * read to the end, {@link runWithRetry} decides (retry.ts: which methods, Retry-After, the time
 * budget), and only the last answer goes up, with a report (attempts, an answer lost).
 *
 * Why not undici's `interceptors.retry` / RetryHandler: it resumes a body that failed half-way
 * with a `Range` request, which the forge's JSON API does not honour (a GET is sent again whole
 * here), and it cannot report that a POST's answer was lost rather than refused, which the
 * ownership rule needs (engine/recovery.ts). The decision, the time budget and the onRetryWait
 * report would all live in its callback anyway; this is the loop around it.
 */
import type { Dispatcher } from "undici";
import { exchange, replay, SettledController, type Answer, type Dispatch, type DispatchOptions } from "./exchange";
import type { HttpMethod } from "./route";
import { runWithRetry, type AttemptOutcome, type RetryWait } from "./retry";

/** Per-request options of the retry layer (dispatch option `forgeRetry`). */
export interface RetryRequestOptions {
  /** Statuses taken as success besides 2xx (never retried). */
  acceptStatuses?: readonly number[];
}

/** What the layer reports, as `context.retry` of `onRequestStart` (filled in before the answer or the error goes up). */
export interface RetryReport {
  /** Attempts made. */
  attempts: number;
  /** The retries stopped because the next wait would cross the time budget. */
  budgetSpent: boolean;
  /** Set when the last attempt got no answer: its error code (the error goes to `onResponseError`). */
  failureCode?: string;
  /** The request may have been acted on and its answer was lost (retry.ts#RetryResult). */
  answerLost?: boolean;
}

/** Settings of the layer, per client. */
export interface RetryLayerOptions {
  policy: Parameters<typeof runWithRetry>[0]["policy"];
  /** Told of each wait before a retry, with the request's method and wire path. */
  onWait?: (wait: RetryWait, request: { method: HttpMethod; path: string }) => void;
}

/** The retry layer; per-request options come in the dispatch option `forgeRetry`. */
export function retryInterceptor(layer: RetryLayerOptions): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function retrying(options: DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      const { forgeRetry, ...attempt } = options as DispatchOptions & { forgeRetry?: RetryRequestOptions };
      const method = options.method as HttpMethod;
      const report: RetryReport = { attempts: 0, budgetSpent: false };
      const controller = new SettledController();
      handler.onRequestStart?.(controller, { retry: report });
      const onWait = layer.onWait;
      runWithRetry({
        method,
        policy: layer.policy,
        send: () => send(dispatch as Dispatch, attempt, controller),
        ...(forgeRetry?.acceptStatuses ? { acceptStatuses: forgeRetry.acceptStatuses } : {}),
        ...(onWait ? { onWait: (wait: RetryWait) => onWait(wait, { method, path: options.path }) } : {}),
      }).then(
        ({ outcome, attempts, budgetSpent, answerLost }) => {
          report.attempts = attempts;
          report.budgetSpent = budgetSpent === true;
          if (answerLost) report.answerLost = true;
          if (controller.reason) {
            handler.onResponseError?.(controller, controller.reason);
          } else if ("failure" in outcome) {
            report.failureCode = outcome.failure.code;
            handler.onResponseError?.(controller, outcome.failure.error as Error);
          } else {
            replay(handler, controller, outcome.response as Answer);
          }
        },
        (error: unknown) => handler.onResponseError?.(controller, error as Error),
      );
      return true;
    };
}

/** One attempt, read to the end, as the retry policy sees it. */
async function send(dispatch: Dispatch, options: DispatchOptions, controller: SettledController): Promise<AttemptOutcome> {
  // An abort (none of the client's own requests has one) ends the loop: the outcome is not retried.
  if (controller.reason) return { failure: { code: "UND_ERR_ABORTED", error: controller.reason } };
  const result = await exchange(dispatch, options);
  if ("answer" in result) return { response: result.answer };
  return { failure: { code: errorCode(result.error), error: result.error } };
}

/** The code of an error or of one of its causes (`ECONNRESET`, `UND_ERR_HEADERS_TIMEOUT`, ...), else `UNKNOWN`. */
function errorCode(error: unknown): string {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return "UNKNOWN";
}
