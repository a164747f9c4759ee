#!/usr/bin/env bash
# Makes the Pulumi YAML language host (`pulumi-language-yaml`, default v1.10.0, env
# PULUMI_YAML_VERSION) available beside the CLI in $HOME/.pulumi/versions/<cli version>/bin, where
# the engine finds language hosts, and prints that directory as the LAST line of stdout. Progress
# goes to stderr. Idempotent: a second run only checks that the file is there.
#
# Where it comes from, first that works:
#   1. already in that directory;
#   2. a `pulumi-language-yaml` on PATH (an official install): copied;
#   3. a build from Go modules: a small wrapper module under ~/.cache/forge-pulumi/yaml-<version>
#      that requires github.com/pulumi/pulumi-yaml at the release tag and builds
#      cmd/pulumi-language-yaml (`go install ...@v1.10.0` alone is refused: the module proxy these
#      machines use refuses the module's version listing, a wrapper's `require` is not). It runs
#      with the 3.259 engine. About a minute on 2 cores with the CLI's module cache warm.
# Needs what scripts/install-pulumi.sh needs (Go >= 1.25 for route 3); run that one first.
set -euo pipefail

CLI_V="${PULUMI_VERSION:-3.259.0}"
CLI_V="${CLI_V#v}"
V="${PULUMI_YAML_VERSION:-1.10.0}"
V="${V#v}"
BIN="$HOME/.pulumi/versions/$CLI_V/bin"
BUILD="$HOME/.cache/forge-pulumi/yaml-$V"
MOD=github.com/pulumi/pulumi-yaml

log() { printf 'install-pulumi-yaml: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ -d "$BIN" ] || die "$BIN is missing: run scripts/install-pulumi.sh first"
stamp="$BIN/.pulumi-language-yaml.version"
if [ -x "$BIN/pulumi-language-yaml" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$V" ]; then
  printf '%s\n' "$BIN"
  exit 0
fi

install_exe() {
  cp -L "$1" "$BIN/.pulumi-language-yaml.tmp.$$"
  chmod 0755 "$BIN/.pulumi-language-yaml.tmp.$$"
  mv -f "$BIN/.pulumi-language-yaml.tmp.$$" "$BIN/pulumi-language-yaml"
  printf '%s\n' "$V" >"$stamp"
}

on_path="$(command -v pulumi-language-yaml 2>/dev/null || true)"
if [ -n "$on_path" ] && [ "$(readlink -f "$on_path")" != "$(readlink -f "$BIN/pulumi-language-yaml" 2>/dev/null)" ]; then
  log "reusing $on_path from PATH"
  install_exe "$on_path"
  printf '%s\n' "$BIN"
  exit 0
fi

GO="$(command -v go 2>/dev/null || true)"
[ -n "$GO" ] || GO=/usr/local/go/bin/go
[ -x "$GO" ] || die "no Go toolchain (need Go >= 1.25 on PATH or at /usr/local/go/bin/go)"
export GOTOOLCHAIN=local GOWORK=off
unset GOFLAGS

mkdir -p "$BUILD"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$BUILD/.lock"
  flock 9
fi
printf 'module forge.local/pulumi-yaml-build\n\ngo 1.25\n\nrequire %s v%s\n' "$MOD" "$V" >"$BUILD/go.mod"
printf '//go:build tools\n\npackage tools\n\nimport _ "%s/cmd/pulumi-language-yaml"\n' "$MOD" >"$BUILD/tools.go"
log "building $MOD@v$V cmd/pulumi-language-yaml (first time: about a minute)"
(cd "$BUILD" && GOFLAGS=-mod=mod "$GO" build -trimpath \
  -ldflags "-s -w -X $MOD/pkg/version.Version=v$V" -o "$BUILD/pulumi-language-yaml" "$MOD/cmd/pulumi-language-yaml") >&2 \
  || die "the build of $MOD@v$V failed"
install_exe "$BUILD/pulumi-language-yaml"
log "pulumi-language-yaml v$V ready in $BIN"
printf '%s\n' "$BIN"
