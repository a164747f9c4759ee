#!/usr/bin/env bash
# `npm run plugin:build`: the provider plugin as one executable per platform, with no Node on the
# user's machine, and what ships it:
#   dist/plugin/<os>-<arch>/pulumi-resource-forge[.exe]             the executable
#   dist/plugin/pulumi-resource-forge-v<version>-<os>-<arch>.tar.gz  for `pulumi plugin install resource forge <version> --file`
#   dist/plugin/npm/pulumi-forge-<os>-<cpu>-<version>.tgz            the npm package of one platform (optional dependency of pulumi-forge)
#   dist/plugin/npm/pulumi-forge-<version>.tgz                       pulumi-forge as published, naming those five as optional dependencies
# for linux-amd64, linux-arm64, darwin-amd64, darwin-arm64 and windows-amd64, all built here (cross-built
# from any of them). Prints the archives' paths last, one a line; progress goes to stderr.
#
#   bash scripts/plugin-build.sh [--host] [--out <dir>] [<os>-<arch> ...]
#
# --host: the executable of this machine's platform alone, no archive, no package (what
# scripts/setup.sh builds for the tests). --out: another directory than dist/plugin (a test's
# own, so that the executable the other tests run is never rebuilt under them). dist/ must be
# built (npm run build).
#
# Built with Bun's `bun build --compile` (docs/development/plugin-executable.md says why Bun and
# not Node's single executable applications): the compiled plugin (dist/provider/plugin/start.js)
# bundled with its version and schema written in, as bytecode, into a copy of the Bun runtime of
# the target. Bun comes from the npm registry (@oven/bun-<os>-<arch>, the package that npm's `bun`
# installs), BUN_VERSION, cached under ~/.cache/forge-pulumi/bun-<version>/<package>.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUN_VERSION="${BUN_VERSION:-1.4.4}"
CACHE="$HOME/.cache/forge-pulumi/bun-$BUN_VERSION"
OUT="$ROOT/dist/plugin"
ALL=(linux-amd64 linux-arm64 darwin-amd64 darwin-arm64 windows-amd64)
log() { printf 'plugin-build: %s\n' "$*" >&2; }

host_platform() {
  local os arch
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; MINGW* | MSYS* | CYGWIN*) os=windows ;; *) os=unsupported ;; esac
  case "$(uname -m)" in x86_64 | amd64) arch=amd64 ;; aarch64 | arm64) arch=arm64 ;; *) arch=unsupported ;; esac
  printf '%s-%s\n' "$os" "$arch"
}

# A platform's Bun package (@oven/bun-<name>), Bun's target, and npm's os and cpu.
bun_package() { case "$1" in linux-amd64) echo bun-linux-x64 ;; linux-arm64) echo bun-linux-aarch64 ;; darwin-amd64) echo bun-darwin-x64 ;; darwin-arm64) echo bun-darwin-aarch64 ;; windows-amd64) echo bun-windows-x64 ;; *) return 1 ;; esac; }
bun_target() { case "$1" in linux-amd64) echo bun-linux-x64 ;; linux-arm64) echo bun-linux-arm64 ;; darwin-amd64) echo bun-darwin-x64 ;; darwin-arm64) echo bun-darwin-arm64 ;; windows-amd64) echo bun-windows-x64 ;; esac; }
npm_os() { case "$1" in windows-*) echo win32 ;; *) echo "${1%-*}" ;; esac; }
npm_cpu() { case "$1" in *-amd64) echo x64 ;; *-arm64) echo arm64 ;; esac; }
exe_name() { case "$1" in windows-*) echo pulumi-resource-forge.exe ;; *) echo pulumi-resource-forge ;; esac; }

# Fails unless the file is an executable of the platform by its header (ELF, Mach-O or PE, and the
# machine): a cross-built executable cannot be run here, so this is what checks it.
check_header() {
  node -e '
    const fs = require("fs");
    const [platform, file] = process.argv.slice(1);
    const b = fs.readFileSync(file).subarray(0, 4096);
    const elf = b.readUInt32BE(0) === 0x7f454c46 && b[4] === 2 && { 0x3e: "amd64", 0xb7: "arm64" }[b.readUInt16LE(18)];
    const macho = b.readUInt32LE(0) === 0xfeedfacf && { 0x01000007: "amd64", 0x0100000c: "arm64" }[b.readUInt32LE(4)];
    const peAt = b.readUInt16BE(0) === 0x4d5a ? b.readUInt32LE(0x3c) : -1;
    const pe = peAt > 0 && b.readUInt32BE(peAt) === 0x50450000 && { 0x8664: "amd64", 0xaa64: "arm64" }[b.readUInt16LE(peAt + 4)];
    const found = elf ? `linux-${elf}` : macho ? `darwin-${macho}` : pe ? `windows-${pe}` : "not an executable";
    if (found !== platform) { console.error(`plugin-build: ${file}: ${found}, not ${platform}`); process.exit(1); }
  ' "$1" "$2"
}

# The Bun runtime of a platform, from the npm registry (npm pack: no install scripts, any os/cpu).
# Prints its path; fails (returning 1, its download removed) if any step does. Called in $(...),
# where `set -e` does not reach: each step is checked here, and each caller adds `|| exit 1`.
bun_binary() {
  local package dir bin tmp
  package="$(bun_package "$1")" || return 1
  dir="$CACHE/$package"
  bin="$dir/bin/bun"
  [ "$1" = windows-amd64 ] && bin="$dir/bin/bun.exe"
  if [ ! -f "$bin" ]; then
    log "fetching @oven/$package@$BUN_VERSION from the npm registry"
    # Under $stage: an interrupted download goes with it (the EXIT trap).
    tmp="$(mktemp -d "$stage/bun.XXXXXX")" || return 1
    if ! { (cd "$tmp" && npm pack --silent "@oven/$package@$BUN_VERSION" >/dev/null) &&
      mkdir -p "$tmp/x" && tar xzf "$tmp"/*.tgz -C "$tmp/x" && [ -f "$tmp/x/package/${bin#"$dir/"}" ] &&
      mkdir -p "$CACHE" && rm -rf "$dir" && mv "$tmp/x/package" "$dir"; }; then
      rm -rf "$tmp"
      log "error: could not fetch @oven/$package@$BUN_VERSION (BUN_VERSION) from the npm registry"
      return 1
    fi
    rm -rf "$tmp"
  fi
  printf '%s\n' "$bin"
}

host="$(host_platform)"
only_host=0
platforms=()
while [ $# -gt 0 ]; do
  arg="$1"
  shift
  case "$arg" in
    --host) only_host=1 ;;
    --out) OUT="$(mkdir -p "$1" && cd "$1" && pwd)"; shift ;;
    -h | --help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bun_package "$arg" >/dev/null || { log "error: no executable for $arg (the platforms: ${ALL[*]})"; exit 2; }; platforms+=("$arg") ;;
  esac
done
if [ "$only_host" = 1 ]; then
  bun_package "$host" >/dev/null || { log "error: no executable for this machine ($host); the plugin runs on Node here (plugin/pulumi-resource-forge)"; exit 2; }
  platforms=("$host")
fi
[ "${#platforms[@]}" -gt 0 ] || platforms=("${ALL[@]}")
[ -f "$ROOT/dist/provider/plugin/start.js" ] || { log "error: dist/ is not built (npm run build)"; exit 1; }
bun_package "$host" >/dev/null || { log "error: Bun does not build on $host"; exit 2; }

version="$(node -p 'require(process.argv[1]).version' "$ROOT/package.json")"
stage="$(mktemp -d "${TMPDIR:-/tmp}/forge-plugin-build.XXXXXX")"
# Whatever is half-written when the script stops (a failed step, an interrupt) goes: the stage,
# and in $OUT the executable being built and the archive being written. $OUT/<platform> is the
# folder tests name in plugins.providers: it holds the executable alone.
building=""
archive_tmp=""
trap 'rm -rf "$stage" ${building:+"$building"} ${archive_tmp:+"$archive_tmp"}' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# The build runs on the host's Bun; another platform's runtime is the file it writes the bundle into.
bun="$(bun_binary "$host")" || exit 1
# The entry: the plugin's start with its version and schema written in (no file is read at run time).
node -e '
  const fs = require("fs");
  const [start, pkg, schema, out] = process.argv.slice(1);
  const build = { version: require(pkg).version, schema: fs.readFileSync(schema, "utf8"), schemaSource: "`pulumi package get-schema <this executable>`" };
  fs.writeFileSync(out, `require(${JSON.stringify(start)}).startPlugin(${JSON.stringify(build)}, process.argv.slice(2));\n`);
' "$ROOT/dist/provider/plugin/start.js" "$ROOT/package.json" "$ROOT/provider/plugin/schema.json" "$stage/entry.js"

archives=()
[ "$only_host" = 1 ] || { rm -rf "$OUT/npm" && mkdir -p "$OUT/npm"; }
for platform in "${platforms[@]}"; do
  exe="$(exe_name "$platform")"
  dir="$OUT/$platform"
  mkdir -p "$dir"
  runtime="$(bun_binary "$platform")" || exit 1
  # --external @pulumi/pulumi: the plugin never loads the SDK (provider/pulumi-sdk.ts is for programs).
  # No .env or bunfig.toml of the directory the engine starts it in is read.
  # (The temporary name ends as the executable's does: Bun appends .exe to a Windows one that does not.)
  building="$dir/.building.$exe"
  "$bun" build "$stage/entry.js" --compile --bytecode --minify --target="$(bun_target "$platform")" \
    --compile-executable-path="$runtime" --external @pulumi/pulumi \
    --no-compile-autoload-dotenv --no-compile-autoload-bunfig --outfile "$building" >"$stage/build.log" 2>&1 ||
    { cat "$stage/build.log" >&2; exit 1; }
  check_header "$platform" "$building"
  # Renamed into place: a plugin that the engine starts meanwhile is the old file or the new, whole.
  mv -f "$building" "$dir/$exe"
  building=""
  log "$platform: $(du -h "$dir/$exe" | cut -f1) $dir/$exe"
  [ "$only_host" = 1 ] && continue

  # The archive Pulumi's plugin installer takes: the executable at its root, with the licence (from
  # the checkout: nothing but the executable is ever written into $dir).
  archive="$OUT/pulumi-resource-forge-v$version-$platform.tar.gz"
  archive_tmp="$archive.tmp"
  tar -czf "$archive_tmp" -C "$dir" "$exe" -C "$ROOT" LICENSE
  mv -f "$archive_tmp" "$archive"
  archive_tmp=""
  archives+=("$archive")
  log "$platform: $(du -h "$archive" | cut -f1) $archive"

  # The npm package of this platform: pulumi-forge's optional dependency that npm installs on it alone.
  package="pulumi-forge-$(npm_os "$platform")-$(npm_cpu "$platform")"
  mkdir -p "$stage/$package"
  cp "$dir/$exe" "$ROOT/LICENSE" "$stage/$package/"
  node -e '
    const [name, version, os, cpu, exe, out] = process.argv.slice(1);
    const manifest = { name, version, description: `The pulumi-forge provider plugin (pulumi-resource-forge) as one executable for ${os}-${cpu}`,
      license: "Apache-2.0", os: [os], cpu: [cpu], files: [exe, "LICENSE"], preferUnplugged: true };
    // Linux executables are built on glibc: npm (9.4 and later) skips the package on musl.
    if (os === "linux") manifest.libc = ["glibc"];
    require("fs").writeFileSync(out, JSON.stringify(manifest, null, 2) + "\n");
  ' "$package" "$version" "$(npm_os "$platform")" "$(npm_cpu "$platform")" "$exe" "$stage/$package/package.json"
  (cd "$stage/$package" && npm pack --silent --pack-destination "$OUT/npm" >/dev/null)
  log "$platform: $(du -h "$OUT/npm/$package-$version.tgz" | cut -f1) $OUT/npm/$package-$version.tgz"
done
# pulumi-forge as published beside them: the checkout packed, its package.json naming each
# platform's package as an optional dependency at this version (the repository's own does not:
# npm ci refuses a lock without the packages, and they exist only once published).
if [ "$only_host" = 0 ]; then
  main="$(cd "$ROOT" && npm pack --ignore-scripts --silent --pack-destination "$stage" | tail -n 1)"
  mkdir -p "$stage/main" && tar xzf "$stage/$main" -C "$stage/main"
  node -e '
    const fs = require("fs");
    const [file, version, ...packages] = process.argv.slice(1);
    const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
    manifest.optionalDependencies = Object.fromEntries(packages.map((name) => [name, version]));
    fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n");
  ' "$stage/main/package/package.json" "$version" $(for p in "${ALL[@]}"; do echo "pulumi-forge-$(npm_os "$p")-$(npm_cpu "$p")"; done)
  tar -C "$stage/main" -czf "$OUT/npm/pulumi-forge-$version.tgz" package
  log "pulumi-forge: $(du -h "$OUT/npm/pulumi-forge-$version.tgz" | cut -f1) $OUT/npm/pulumi-forge-$version.tgz (optional dependencies: the five platforms' packages)"
fi
[ "${#archives[@]}" -eq 0 ] || printf '%s\n' "${archives[@]}"
