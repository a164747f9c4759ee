/**
 * The child process of one fleet stack (cli/fleet.ts): it receives the stack over IPC, checks it,
 * answers with what it found and exits. The fleet starts it in a session of its own, which it ends
 * whole at the stack's timeout. Should the fleet itself die (a cancelled job's SIGKILL), the IPC
 * channel closes and this process ends its session, so no CLI or plugin outlives the fleet.
 */
import "../provider/compile-cache";
import { checkStack, KILL_GRACE_MS, type FleetStack } from "./fleet";
import { endSession } from "./process-session";

process.once("message", (target: FleetStack) => {
  void checkStack(target).then((outcome) => process.send?.(outcome, () => process.exit(0)));
});
process.once("disconnect", () => {
  void endSession(process.pid, KILL_GRACE_MS, process.pid).finally(() => process.exit(1));
});
