/**
 * The suite's set-up (vitest.config.ts `setupFiles`): under vitest the provider runs from its
 * TypeScript sources, which Node's `require` cannot load, so the declaring files that
 * provider/resources/by-name.ts loads at a type's first use come from the registry's own imports
 * here. The build's path (`require`, one file per type) is test/unit/lazy-declarations.test.ts's.
 */
import { useDeclaringFileLoader } from "../../provider/resources/by-name";
import { declaringFiles } from "../../provider/resources";

useDeclaringFileLoader((file) => declaringFiles[file]!);
