/**
 * Node's on-disk compile cache for the modules this process loads (Node >= 22.1): a command's
 * second start skips compiling them, about a third of its load time (the plugin and the CLIs load
 * hundreds of modules of the Pulumi SDK). Imported first by every bin. The cache lives in the
 * directory `NODE_COMPILE_CACHE` names, else in the system's temporary directory; when it cannot
 * be written, Node runs without it.
 */
import * as nodeModule from "node:module";

nodeModule.enableCompileCache?.();

/**
 * Writes what this process compiled so far to the cache now. Node writes it when a process exits,
 * but the engine ends its provider plugins with a signal, so a plugin that does not write it
 * itself compiles every module again at each start (about twice its load time).
 */
export function keepCompiled(): void {
  nodeModule.flushCompileCache?.();
}
