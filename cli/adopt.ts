/**
 * `forge-adopt`: writes the Pulumi program that declares what a forge holds (see `USAGE`). The
 * reading and writing are in provider/adopt/; this module is the command: arguments, the
 * connection, where the program goes, exit statuses.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { closeClients, USER_AGENT } from "../provider/client";
import { printable, shellWord } from "../provider/adopt/escape";
import { readForge, withoutFiles, type Adoption } from "../provider/adopt/read";
import { renderProgram, scopeArguments } from "../provider/adopt/render";
import { renderImportList, renderYamlProgram } from "../provider/adopt/render-yaml";
import { parseTerraformState, readTerraformState, type TerraformState } from "../provider/adopt/terraform";
import { forgeFromEnv } from "./forge-connection";

export const USAGE = `Usage: forge-adopt [--group <path>]... [--project <path>]... [--instance] [--snippets]
                   [--language typescript|yaml] [--face plugin|dynamic] [--format program|list|pulumi-import]
                   [--out <file> [--force]]
       forge-adopt --from-terraform <terraform.tfstate> [--language ...] [--format ...] [--out ...]

Reads what exists on the forge and writes a Pulumi program that declares it, every resource
with the \`import\` option, so that \`pulumi up\` adopts it without changing anything.

Scope (at least one):
  --group <path>     a group, with its subgroups and their projects (repeatable)
  --project <path>   a project (repeatable)
  --instance         the instance's own objects: broadcast messages, clusters, feature gates,
                     Geo sites (administrator)
  --snippets         the personal snippets of the token's user

Or, alone:
  --from-terraform <file>
                     the objects a state of the GitLab Terraform provider manages (format v4:
                     terraform.tfstate, or \`terraform state pull\`), each read from the forge by
                     the id the state gives; the program names the Terraform address of each, and
                     says what cannot move (a token's value) and what no forge resource declares

The fleet (what its stacks hold is left out; each state read with \`pulumi stack export\`):
  --stacks-file <file>
                     the stacks, as forge-drift takes them (a YAML or JSON list of { stack, cwd })
  --stack <name>     a stack of the --cwd project (repeatable)
  --cwd <dir>        the project directory of --stack (default: the current directory)
  --unmanaged        only what no stack holds and the forge did not make itself (forge-drift
                     --unmanaged's report): refused while a stack's state cannot be read
  --ignore-file <file>
                     with --unmanaged: leave out what the ignore file allows outside code

Output:
  --out <file>       write the program to this file (default: standard output), and the
                     files it names (group avatars) under assets/ beside it; on standard
                     output, objects that need a file are left out and noted
  --force            replace the file if it exists
  --language <name>  typescript (default): an index.ts of the library's classes; yaml: a whole
                     Pulumi.yaml for the provider plugin (forge:index:<Name> resources, secrets
                     in its config: block), to write with --out Pulumi.yaml
  --face <face>      with --language typescript: plugin (default), the classes of
                     pulumi-forge/plugin, served by the provider plugin, which the project's
                     Pulumi.yaml names (the program's header says how); dynamic, the classes of
                     pulumi-forge, dynamic providers that need no plugin
  --plugin-path <dir>
                     with --language yaml: the plugin directory the program names (default
                     node_modules/pulumi-forge/plugin); "" for none (a plugin installed with
                     \`pulumi plugin install\`)
  --format <format>  program (default); list: what would be declared (type, name, import id),
                     no program (--list says the same); pulumi-import: the JSON list that
                     \`pulumi import --file <file>\` takes (the plugin's type tokens)

Connection: FORGE_BASE_URL and FORGE_TOKEN (the token is never taken on the command line, so
it stays out of shell history), and the FORGE_CA_BUNDLE, HTTPS_PROXY, ... settings of the library.
The same forge gives the same program: nothing in it depends on the time or the stack.

Exit status: 0 done, 1 error (no token, an unreachable forge, a group or project not found, a
Terraform state that cannot be read), 2 wrong usage.`;

/** Where an npm-installed package's plugin is, from a program beside the project's node_modules. */
const DEFAULT_PLUGIN_PATH = "node_modules/pulumi-forge/plugin";

const argsSchema = z.object({
  group: z.array(z.string().min(1, "--group needs a group's full path")).default([]),
  project: z.array(z.string().min(1, "--project needs a project's full path")).default([]),
  instance: z.boolean().default(false),
  snippets: z.boolean().default(false),
  fromTerraform: z.string().min(1, "--from-terraform needs a state file").optional(),
  stacksFile: z.string().min(1, "--stacks-file needs a file").optional(),
  stack: z.array(z.string().min(1, "--stack needs a stack's name")).default([]),
  cwd: z.string().min(1, "--cwd needs a directory").optional(),
  unmanaged: z.boolean().default(false),
  ignoreFile: z.string().min(1, "--ignore-file needs a file").optional(),
  out: z.string().min(1, "--out needs a file name").optional(),
  force: z.boolean().default(false),
  list: z.boolean().default(false),
  language: z.enum(["typescript", "yaml"], { error: "--language is typescript or yaml" }).optional(),
  face: z.enum(["plugin", "dynamic"], { error: "--face is plugin or dynamic" }).optional(),
  pluginPath: z.string().default(DEFAULT_PLUGIN_PATH),
  format: z.enum(["program", "list", "pulumi-import"], { error: "--format is program, list or pulumi-import" }).optional(),
  help: z.boolean().default(false),
});

/** Where the command writes; a test passes its own. */
export interface AdoptIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

const processIo: AdoptIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
};

/** A mistake in the command line: exit status 2, with the usage. */
class UsageError extends Error {}

type Args = Omit<z.output<typeof argsSchema>, "format" | "language" | "face"> & {
  format: "program" | "list" | "pulumi-import";
  language: "typescript" | "yaml";
  face: "plugin" | "dynamic";
};

function parse(argv: string[]): Args {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        group: { type: "string", multiple: true },
        project: { type: "string", multiple: true },
        instance: { type: "boolean" },
        snippets: { type: "boolean" },
        "from-terraform": { type: "string" },
        "stacks-file": { type: "string" },
        stack: { type: "string", multiple: true },
        cwd: { type: "string" },
        unmanaged: { type: "boolean" },
        "ignore-file": { type: "string" },
        out: { type: "string" },
        force: { type: "boolean" },
        list: { type: "boolean" },
        language: { type: "string" },
        face: { type: "string" },
        "plugin-path": { type: "string" },
        format: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: false,
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const parsed = argsSchema.safeParse({
    ...values,
    pluginPath: values["plugin-path"],
    fromTerraform: values["from-terraform"],
    stacksFile: values["stacks-file"],
    ignoreFile: values["ignore-file"],
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => issue.message).join("; "));
  const args = parsed.data;
  const scoped = args.group.length > 0 || args.project.length > 0 || args.instance || args.snippets;
  if (!args.help && !scoped && args.fromTerraform === undefined) {
    throw new UsageError("say what to adopt: --group, --project, --instance, --snippets or --from-terraform");
  }
  if (scoped && args.fromTerraform !== undefined)
    throw new UsageError("--from-terraform adopts what the state names: leave out --group, --project, --instance and --snippets");
  const fleet = args.stacksFile !== undefined || args.stack.length > 0;
  if (fleet && args.fromTerraform !== undefined)
    throw new UsageError("--stacks-file and --stack go with a scope (--group, --project, --instance, --snippets), not --from-terraform");
  if (args.cwd !== undefined && args.stack.length === 0) throw new UsageError("--cwd is the project of --stack");
  if (args.unmanaged && !fleet) throw new UsageError("--unmanaged needs the fleet: --stacks-file <file> or --stack <name>");
  if (args.ignoreFile !== undefined && !args.unmanaged) throw new UsageError("--ignore-file goes with --unmanaged");
  if (args.force && !args.out) throw new UsageError("--force goes with --out");
  if (args.list && args.format !== undefined && args.format !== "list")
    throw new UsageError(`--list and --format ${args.format} ask for different things`);
  const format = args.list ? "list" : (args.format ?? "program");
  if (format === "list" && args.out) throw new UsageError("--list writes no program: leave out --out");
  if (format !== "program" && args.language) throw new UsageError(`--language is the program's: --format ${format} writes none`);
  if (values["plugin-path"] !== undefined && args.language !== "yaml") throw new UsageError("--plugin-path goes with --language yaml");
  if (args.face !== undefined && format !== "program") throw new UsageError(`--face is the program's: --format ${format} writes none`);
  if (args.face === "dynamic" && args.language === "yaml")
    throw new UsageError("--face dynamic is TypeScript's: a YAML program is on the plugin");
  return { ...args, format, language: args.language ?? "typescript", face: args.face ?? "plugin" };
}

/** The state file, read and checked; an error names the file, never what it holds. */
function readState(file: string): TerraformState {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read the Terraform state ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return parseTerraformState(text);
  } catch (error) {
    throw new Error(`the Terraform state ${file} ${(error as Error).message}`);
  }
}

/** The fleet's arguments for the program's header: how the same program is made again. */
function fleetArguments(args: Args): string {
  const word = (text: string) => shellWord(text) ?? text;
  return [
    ...(args.unmanaged ? ["--unmanaged"] : []),
    ...(args.stacksFile !== undefined ? [`--stacks-file ${word(args.stacksFile)}`] : []),
    ...(args.cwd !== undefined ? [`--cwd ${word(args.cwd)}`] : []),
    ...args.stack.map((stack) => `--stack ${word(stack)}`),
    ...(args.ignoreFile !== undefined ? [`--ignore-file ${word(args.ignoreFile)}`] : []),
  ]
    .map((part) => ` ${part}`)
    .join("");
}

/** Runs the command; resolves to the exit status. */
export async function runAdoptCli(argv: string[], io: AdoptIo = processIo): Promise<number> {
  let args: Args;
  try {
    args = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`forge-adopt: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  try {
    if (args.out && existsSync(args.out) && !args.force) throw new Error(`${args.out} exists: pass --force to replace it`);
    // The state holds secrets: read before the connection, and never echoed.
    const state = args.fromTerraform === undefined ? undefined : readState(args.fromTerraform);
    const { forge, client } = forgeFromEnv(io.env);
    const scope = { groups: args.group, projects: args.project, instance: args.instance, snippets: args.snippets };
    const fleet = args.stacksFile !== undefined || args.stack.length > 0;
    let read: Adoption;
    if (fleet) {
      // The fleet's modules only for a fleet: the rest of the command starts without them.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { fleetOf } = require("./fleet") as typeof import("./fleet");
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { adoptionOf, findUnmanaged } = require("./unmanaged") as typeof import("./unmanaged");
      const stacks = fleetOf({ stack: args.stack, "stacks-file": args.stacksFile, cwd: args.cwd }, "forge-adopt", { err: io.stderr });
      const log = (message: string) => io.stderr(`forge-adopt: ${printable(message)}\n`);
      read = await adoptionOf(await findUnmanaged({ stacks, scope, ignoreFile: args.ignoreFile, env: io.env, log }), args.unmanaged);
    } else {
      read = state === undefined ? await readForge(client, scope) : await readTerraformState(client, state, args.fromTerraform!);
    }
    const command =
      (args.fromTerraform === undefined
        ? `${scopeArguments(scope)}${fleetArguments(args)}`
        : `--from-terraform ${shellWord(args.fromTerraform) ?? args.fromTerraform}`) + (args.face === "dynamic" ? " --face dynamic" : "");
    // A file goes beside a program written to a file; the lists write none, so they list them all.
    const adoption = args.out || args.format !== "program" ? read : withoutFiles(read);
    // What the forge and the state say is shown, never sent to the terminal as it is (an ESC
    // sequence is a command to it, a newline or a tab would make a line or a column of its own).
    for (const skipped of adoption.skipped)
      io.stderr(`forge-adopt: ${skipped.left ? "not adopted" : "not read"}: ${printable(skipped.what)}: ${printable(skipped.reason)}\n`);
    for (const notice of adoption.terraform?.cannotMove ?? [])
      io.stderr(`forge-adopt: cannot move: ${printable(notice.what)}: ${printable(notice.text)}\n`);
    if (args.format === "list") {
      // From a Terraform state, a fourth column: the address the object comes from.
      const row = (resource: (typeof adoption.resources)[number]) => [
        resource.declaration.name,
        resource.name,
        resource.importId,
        ...(resource.origin ? [resource.origin] : []),
      ];
      for (const resource of adoption.resources) io.stdout(`${row(resource).map(printable).join("\t")}\n`);
      return 0;
    }
    const rendered = { baseUrl: forge, version: USER_AGENT.slice(USER_AGENT.indexOf("/") + 1) };
    const program =
      args.format === "pulumi-import"
        ? renderImportList(adoption)
        : args.language === "yaml"
          ? renderYamlProgram(adoption, `${command} --language yaml`, {
              ...rendered,
              project: "forge-adopted",
              pluginPath: args.pluginPath || undefined,
            })
          : renderProgram(adoption, command, { ...rendered, face: args.face });
    if (args.out) {
      const beside = resolve(dirname(args.out));
      const files = (args.format === "pulumi-import" ? [] : adoption.resources)
        .flatMap((resource) => resource.files ?? [])
        .map((file) => ({ ...file, target: join(beside, file.path) }));
      // A file's path holds text from the forge (a snippet's file name): it never leaves the program's directory.
      const outside = files.find((file) => !resolve(file.target).startsWith(`${beside}${sep}`));
      if (outside)
        throw new Error(`a file named by the forge would be written outside ${beside} (${printable(outside.path)}): nothing was written`);
      const existing = files.find((file) => existsSync(file.target));
      if (existing && !args.force) throw new Error(`${existing.target} exists: pass --force to replace it`);
      for (const file of files) {
        mkdirSync(dirname(file.target), { recursive: true });
        // A private snippet's text is as private beside the program as on the forge.
        writeFileSync(file.target, file.content, { mode: file.read ? 0o600 : 0o644 });
      }
      writeFileSync(args.out, program);
      io.stderr(`forge-adopt: wrote ${adoption.resources.length} resources to ${args.out}\n`);
    } else {
      io.stdout(program);
    }
    return 0;
  } catch (error) {
    io.stderr(`forge-adopt: ${printable(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  } finally {
    await closeClients();
  }
}
