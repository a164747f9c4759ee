#!/usr/bin/env bash
# Makes the Pulumi YAML language host (`pulumi-language-yaml`, default v1.25.0, env
# PULUMI_YAML_VERSION) available to the Pulumi CLI (default 3.259.0, env PULUMI_VERSION) that
# scripts/install-pulumi.sh put in $HOME/.pulumi/versions/<cli>, and prints the bin directory to
# use as the LAST line of stdout. Progress goes to stderr. Idempotent: a second run only checks
# that the files are there.
#
# The engine finds a language host beside the `pulumi` executable that runs (as it resolves
# /proc/self/exe), else on PATH with a warning on every command. So the host goes into a
# directory of its own for each pair of versions:
#   ~/.cache/forge-pulumi/pulumi-<cli>-yaml-<yaml>/{bin,libexec}
# holding hard links to the CLI's files in ~/.pulumi/versions/<cli> (no copy; a copy when the two
# are on different file systems) and to the YAML host. Nothing is written into
# ~/.pulumi/versions/<cli>: checkouts that want another YAML host (an older branch, another
# worktree on the same machine) each get their own directory instead of overwriting one another's.
# scripts/setup.sh puts that bin directory first on PATH; the tests compute the same directory
# from the same variables (test/support/pulumi-paths.ts).
#
# Where the host comes from, first that works:
#   1. already there (the stamp in the bin directory names the version);
#   2. PULUMI_LANGUAGE_YAML=<file>: that executable (an official host, say), linked as it is;
#   3. the CLI's own bin directory holds a host this script did not put there (an official
#      install bundles one): that one, whatever its version (the stamp says "bundled");
#   4. a build from Go modules: a small wrapper module under ~/.cache/forge-pulumi/yaml-<version>
#      that requires github.com/pulumi/pulumi-yaml at the release tag and builds
#      cmd/pulumi-language-yaml (`go install ...@v1.25.0` alone is refused: the module proxy these
#      machines use refuses the module's version listing, a wrapper's `require` is not). The host
#      is built against the pkg/v3 and sdk/v3 its release pins (v3.206.0 for v1.25.0: v1.25.0 does
#      not compile against v3.259.0, whose plugin API changed), so it shares nothing with the
#      CLI's build. v1.25.0 needs Go >= 1.24.7, no GOTOOLCHAIN. Measured on 2 cores: cold (empty Go
#      caches, quiet machine) 1 min 48 s, 4 min 08 s on a loaded one; Go module cache +480 MB,
#      build cache +425 MB; a warm run ~0.02 s.
# Needs scripts/install-pulumi.sh run first, and for route 4 Go and the Go module proxy.
set -euo pipefail

CLI_V="${PULUMI_VERSION:-3.259.0}"
CLI_V="${CLI_V#v}"
V="${PULUMI_YAML_VERSION:-1.25.0}"
V="${V#v}"
CLI_ROOT="$HOME/.pulumi/versions/$CLI_V"
CACHE="$HOME/.cache/forge-pulumi"
BUILD="$CACHE/yaml-$V"
ROOT="$CACHE/pulumi-$CLI_V-yaml-$V"
BIN="$ROOT/bin"
MOD=github.com/pulumi/pulumi-yaml

log() { printf 'install-pulumi-yaml: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ -x "$CLI_ROOT/bin/pulumi" ] || die "$CLI_ROOT/bin/pulumi is missing: run scripts/install-pulumi.sh first"
stamp="$BIN/.pulumi-language-yaml.version"

# The CLI's files the root links to: bin/* (but a YAML host) and libexec/* (the Node host's shim
# forwards to ../libexec/pulumi-language-nodejs), and the install manifest.
cli_files() {
  local f
  for f in "$CLI_ROOT"/bin/* "$CLI_ROOT"/libexec/* "$CLI_ROOT/forge-install.txt"; do
    [ -f "$f" ] || continue
    [ "$(basename "$f")" = pulumi-language-yaml ] && continue
    printf '%s\n' "${f#"$CLI_ROOT"/}"
  done
}

# True when every file of the root is a link to its source and the host's stamp is right.
complete() {
  [ -x "$BIN/pulumi-language-yaml" ] && [ -x "$BIN/pulumi" ] || return 1
  case "$(cat "$stamp" 2>/dev/null)" in "$V" | bundled*) ;; *) return 1 ;; esac
  local f
  while IFS= read -r f; do
    [ "$ROOT/$f" -ef "$CLI_ROOT/$f" ] || return 1
  done < <(cli_files)
}

# link SRC DEST: a hard link (a copy across file systems), replacing DEST atomically.
link() {
  mkdir -p "$(dirname "$2")"
  local tmp
  tmp="$(dirname "$2")/.$(basename "$2").tmp.$$"
  ln -f "$1" "$tmp" 2>/dev/null || cp -p "$1" "$tmp"
  mv -f "$tmp" "$2"
}

link_cli() {
  local f
  while IFS= read -r f; do
    [ "$ROOT/$f" -ef "$CLI_ROOT/$f" ] || link "$CLI_ROOT/$f" "$ROOT/$f"
  done < <(cli_files)
}

install_host() { # install_host FILE STAMP
  link "$1" "$BIN/pulumi-language-yaml"
  chmod 0755 "$BIN/pulumi-language-yaml"
  printf '%s\n' "$2" >"$stamp"
}

if complete; then
  printf '%s\n' "$BIN"
  exit 0
fi

mkdir -p "$BUILD"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$BUILD/.lock"
  flock 9
fi

if [ -x "$BIN/pulumi-language-yaml" ] && case "$(cat "$stamp" 2>/dev/null)" in "$V" | bundled*) true ;; *) false ;; esac; then
  # Only the CLI's files changed (a reinstalled CLI): relink them.
  link_cli
elif [ -n "${PULUMI_LANGUAGE_YAML:-}" ]; then
  [ -x "$PULUMI_LANGUAGE_YAML" ] || die "PULUMI_LANGUAGE_YAML=$PULUMI_LANGUAGE_YAML is not an executable"
  log "using $PULUMI_LANGUAGE_YAML (PULUMI_LANGUAGE_YAML)"
  link_cli
  install_host "$PULUMI_LANGUAGE_YAML" "bundled $PULUMI_LANGUAGE_YAML"
elif [ -x "$CLI_ROOT/bin/pulumi-language-yaml" ] && [ ! -f "$CLI_ROOT/bin/.pulumi-language-yaml.version" ]; then
  log "using the YAML host bundled with the CLI in $CLI_ROOT/bin"
  link_cli
  install_host "$CLI_ROOT/bin/pulumi-language-yaml" "bundled $CLI_ROOT/bin/pulumi-language-yaml"
else
  if [ ! -x "$BUILD/pulumi-language-yaml" ] || [ "$(cat "$BUILD/.built" 2>/dev/null)" != "$V" ]; then
    GO="$(command -v go 2>/dev/null || true)"
    [ -n "$GO" ] || GO=/usr/local/go/bin/go
    [ -x "$GO" ] || die "no Go toolchain (need Go >= 1.24.7 on PATH or at /usr/local/go/bin/go)"
    export GOTOOLCHAIN=local GOWORK=off
    unset GOFLAGS
    printf 'module forge.local/pulumi-yaml-build\n\ngo 1.24.7\n\nrequire %s v%s\n' "$MOD" "$V" >"$BUILD/go.mod"
    printf '//go:build tools\n\npackage tools\n\nimport _ "%s/cmd/pulumi-language-yaml"\n' "$MOD" >"$BUILD/tools.go"
    log "building $MOD@v$V cmd/pulumi-language-yaml (first time: about 4 minutes on 2 cores)"
    (cd "$BUILD" && GOFLAGS=-mod=mod "$GO" build -trimpath \
      -ldflags "-s -w -X $MOD/pkg/version.Version=v$V" -o "$BUILD/.pulumi-language-yaml.tmp" "$MOD/cmd/pulumi-language-yaml") >&2 \
      || die "the build of $MOD@v$V failed"
    mv -f "$BUILD/.pulumi-language-yaml.tmp" "$BUILD/pulumi-language-yaml"
    printf '%s\n' "$V" >"$BUILD/.built"
  fi
  link_cli
  install_host "$BUILD/pulumi-language-yaml" "$V"
fi
complete || die "$ROOT is incomplete after install"
log "pulumi-language-yaml $(cat "$stamp") with pulumi $CLI_V ready in $BIN"
printf '%s\n' "$BIN"
