import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A request as the test server received it. */
export interface RecordedRequest {
  method: string;
  /** Raw request target (path + query) exactly as sent. */
  url: string;
  /** Path part of `url`, still percent-encoded. */
  rawPath: string;
  /** Query part of `url` without `?`, still percent-encoded. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Which TCP connection carried it (1-based). */
  socketId: number;
  /** Date.now() at arrival. */
  at: number;
}

/** A scripted answer. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings as text/plain unless headers say otherwise. */
  body?: unknown;
  /** Destroy the socket without answering. */
  drop?: boolean;
  /** Never answer (until the server closes). */
  hang?: boolean;
  /** Send the status, the headers and half the body, then destroy the socket. */
  cut?: boolean;
}

export type Script = Reply | ((request: RecordedRequest, server: TestServer) => Reply);

/** A real HTTP server on 127.0.0.1:0 that records requests and plays scripted replies in order. */
export interface TestServer {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: RecordedRequest[];
  /** Connections opened so far. */
  connections: number;
  /** Queues replies; once the queue is empty, `fallback` answers. */
  script(...replies: Script[]): void;
  /** Forgets recorded requests and unplayed replies, and restores the default fallback. */
  reset(): void;
  fallback: Script;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const queue: Script[] = [];
  const sockets = new Map<Socket, number>();
  const state: TestServer = {
    url: "",
    requests: [],
    connections: 0,
    script: (...replies) => void queue.push(...replies),
    reset: () => {
      queue.length = 0;
      state.requests.length = 0;
      state.fallback = { status: 200, body: {} };
    },
    fallback: { status: 200, body: {} },
    close: async () => {
      server.closeAllConnections();
      for (const socket of sockets.keys()) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        url,
        rawPath: q === -1 ? url : url.slice(0, q),
        rawQuery: q === -1 ? "" : url.slice(q + 1),
        headers: req.headers,
        body: Buffer.concat(chunks),
        socketId: sockets.get(req.socket) ?? 0,
        at: Date.now(),
      };
      state.requests.push(recorded);
      const script = queue.shift() ?? state.fallback;
      const reply = typeof script === "function" ? script(recorded, state) : script;
      respond(res, reply);
    });
  });
  server.on("connection", (socket) => {
    state.connections += 1;
    sockets.set(socket, state.connections);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function respond(res: ServerResponse, reply: Reply): void {
  if (reply.drop) {
    res.socket?.destroy();
    return;
  }
  if (reply.hang) return;
  const headers: Record<string, string> = { ...reply.headers };
  let payload = "";
  if (reply.body !== undefined) {
    if (typeof reply.body === "string") {
      payload = reply.body;
      headers["content-type"] ??= "text/plain; charset=utf-8";
    } else {
      payload = JSON.stringify(reply.body);
      headers["content-type"] ??= "application/json";
    }
  }
  if (reply.cut) {
    res.writeHead(reply.status ?? 200, { ...headers, "content-length": String(Buffer.byteLength(payload)) });
    res.write(payload.slice(0, Math.floor(payload.length / 2)), () => res.socket?.destroy());
    return;
  }
  res.writeHead(reply.status ?? 200, headers);
  res.end(payload);
}
