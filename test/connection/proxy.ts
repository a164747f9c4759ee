/** A forward proxy on loopback for the connection tests: CONNECT tunnels, counted by target. */
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";

/** A running proxy: its URL, the targets it was asked to tunnel to, and its server (to close). */
export interface ConnectProxy {
  url: string;
  tunnels: string[];
  server: Server;
}

/** Starts a CONNECT proxy on loopback; `refuse` answers every tunnel 403, as a proxy that blocks the forge. */
export async function startConnectProxy(refuse = false): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const server = createServer((_request, response) => response.writeHead(405).end());
  server.on("connect", (request, client, head) => {
    tunnels.push(request.url ?? "");
    if (refuse) {
      client.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const [host, port] = (request.url ?? "").split(":");
    const upstream = connect(Number(port), host!, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels, server };
}
