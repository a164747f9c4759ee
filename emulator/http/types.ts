/** What the HTTP layer writes out; `body` undefined means no body (204, 304). */
export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
