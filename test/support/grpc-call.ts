/**
 * A unary call of a generated gRPC client (grpc-js, as the engine's gRPC would call) as a promise,
 * for the contract tests and the benches that speak to a plugin on the wire.
 */
import * as grpc from "@grpc/grpc-js";

type UnaryMethod<Res> = (request: unknown, done: (error: grpc.ServiceError | null, response: Res) => void) => void;

/** The call's answer; a failure rejects with the gRPC error. */
export function unaryCall<Res>(client: grpc.Client, method: string, request: unknown): Promise<Res>;
/**
 * With `allowUnimplemented`, an UNIMPLEMENTED answer resolves to undefined: a method the plugin may
 * leave to the engine (the handshake, CheckConfig, DiffConfig). Any other failure still rejects.
 */
export function unaryCall<Res>(
  client: grpc.Client,
  method: string,
  request: unknown,
  options: { allowUnimplemented: true },
): Promise<Res | undefined>;
export function unaryCall<Res>(
  client: grpc.Client,
  method: string,
  request: unknown,
  options: { allowUnimplemented?: boolean } = {},
): Promise<Res | undefined> {
  const call = (client as unknown as Record<string, UnaryMethod<Res> | undefined>)[method];
  if (typeof call !== "function") return Promise.reject(new Error(`the client has no method ${method}`));
  return new Promise((resolve, reject) =>
    call.call(client, request, (error, response) => {
      if (!error) resolve(response);
      else if (options.allowUnimplemented && error.code === grpc.status.UNIMPLEMENTED) resolve(undefined);
      else reject(error);
    }),
  );
}
