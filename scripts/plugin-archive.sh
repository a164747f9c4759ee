#!/usr/bin/env bash
# `npm run plugin:archive`: the provider plugin as an archive for
#   pulumi plugin install resource forge <version> --file <archive>
# The archive holds, at its root, the executable `pulumi-resource-forge` (the engine runs it) and
# node_modules/ with the package and its runtime dependencies, @pulumi/pulumi included (it is a
# peer of the library, but the plugin runs alone). It runs on the user's Node >= 22.19 (`node` on
# PATH or FORGE_PLUGIN_NODE); it has no native code, so one archive serves every OS and CPU.
#
#   bash scripts/plugin-archive.sh [<packed pulumi-forge .tgz>] [<output directory>]
#
# Without a tarball it packs this checkout (dist/ must be built). Default output: dist/plugin/.
# Prints the archive's path as the LAST line of stdout; progress goes to stderr. Packages come
# from the npm cache first (--prefer-offline), the registry otherwise.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tarball="${1:-}"
out="${2:-$ROOT/dist/plugin}"
version="$(node -p 'require(process.argv[1]).version' "$ROOT/package.json")"
pulumi_sdk="$(node -p 'require(process.argv[1]).packages["node_modules/@pulumi/pulumi"].version' "$ROOT/package-lock.json")"
log() { printf 'plugin-archive: %s\n' "$*" >&2; }

stage="$(mktemp -d "${TMPDIR:-/tmp}/forge-plugin-archive.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
if [ -z "$tarball" ]; then
  [ -f "$ROOT/dist/provider/plugin/main.js" ] || { log "error: dist/ is not built (npm run build)"; exit 1; }
  log "packing $ROOT"
  name="$(cd "$ROOT" && npm pack --ignore-scripts --silent --pack-destination "$stage" | tail -n 1)"
  tarball="$stage/$name"
fi
tarball="$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")"

mkdir -p "$stage/root"
cat >"$stage/root/package.json" <<JSON
{ "name": "pulumi-resource-forge", "version": "$version", "private": true,
  "dependencies": { "pulumi-forge": "file:$tarball", "@pulumi/pulumi": "$pulumi_sdk" } }
JSON
log "installing pulumi-forge $version with @pulumi/pulumi $pulumi_sdk"
(cd "$stage/root" && npm install --omit=dev --prefer-offline --no-audit --no-fund --ignore-scripts --install-links --loglevel=error >&2)
rm -f "$stage/root/package.json" "$stage/root/package-lock.json"

# The engine runs <plugin dir>/pulumi-resource-forge: hand over to the package's own launcher.
cat >"$stage/root/pulumi-resource-forge" <<'SH'
#!/bin/sh
exec "$(dirname "$(readlink -f "$0")")/node_modules/pulumi-forge/plugin/pulumi-resource-forge" "$@"
SH
chmod 0755 "$stage/root/pulumi-resource-forge"

mkdir -p "$out"
archive="$out/pulumi-resource-forge-v$version.tar.gz"
tar -C "$stage/root" -czf "$archive.tmp" .
mv -f "$archive.tmp" "$archive"
log "$(du -h "$archive" | cut -f1) $archive"
printf '%s\n' "$archive"
