import { forgeClockOffset, type ForgeClient } from "../client";
import { routes } from "../../api/routes";

/**
 * The forge's time now, in milliseconds since the epoch: this machine's clock plus the offset the
 * forge's latest answer gave (client/forge-clock.ts), or, before any answer, one `GET /user`'s
 * (as forge-recover measures it), or always one with `fresh`. A forge that sends no readable `Date` leaves this machine's
 * clock, and `warn` says so.
 */
export async function forgeNow(client: ForgeClient, warn: (message: string) => void, options: { fresh?: boolean } = {}): Promise<number> {
  // `fresh`: a long-lived process (a fleet's drift check) asks the forge each time rather than trust an old answer.
  if (options.fresh || forgeClockOffset(client.baseUrl) === undefined) await client.request(routes.user.get).catch(() => undefined);
  const offset = forgeClockOffset(client.baseUrl);
  if (offset === undefined) {
    warn(`${client.baseUrl} sent no Date header: the schedule uses this machine's clock instead of the forge's`);
    return Date.now();
  }
  return Date.now() + offset;
}
