# Shared install helpers for the cross-platform CI lanes (sourced, not run):
# check-targets, glibc-check, windows-lane, actionlint. Each installs only what is missing.

XPLAT_DIR="${ADTLS_XPLAT_DIR:-$PWD/target/xplat}"
ZIG_VENV="${ADTLS_ZIG_VENV:-$PWD/target/zig-venv}"
mkdir -p "$XPLAT_DIR"

# xplat_apt cmd:package ...  — apt-get install the packages whose command is missing.
xplat_apt() {
  local need=() pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
  done
  [ ${#need[@]} -gt 0 ] || return 0
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "installing Debian packages: ${need[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
}

xplat_rustup_targets() {
  local installed missing=() t
  installed=$(rustup target list --installed)
  for t in "$@"; do grep -qx "$t" <<<"$installed" || missing+=("$t"); done
  [ ${#missing[@]} -eq 0 ] || rustup target add "${missing[@]}"
}

# A venv with zig (PyPI ziglang) and cargo-zigbuild; `zig` on its bin/.
xplat_zig_venv() {
  if ! { [ -x "$ZIG_VENV/bin/cargo-zigbuild" ] \
      && "$ZIG_VENV/bin/python" -m ziglang version >/dev/null 2>&1; }; then
    xplat_apt python3:python3
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || xplat_apt __none__:python3-venv
    rm -rf "$ZIG_VENV"
    python3 -m venv "$ZIG_VENV"
    "$ZIG_VENV/bin/python" -m pip install -q --disable-pip-version-check ziglang cargo-zigbuild
  fi
  if [ ! -x "$ZIG_VENV/bin/zig" ]; then
    printf '#!/bin/sh\nexec "%s" -m ziglang "$@"\n' "$ZIG_VENV/bin/python" > "$ZIG_VENV/bin/zig"
    chmod +x "$ZIG_VENV/bin/zig"
  fi
}

# clang-cl (a symlink to clang) and three stub headers for ring's C parts: prints the dir.
xplat_msvc_stub() {
  local stub="$XPLAT_DIR/msvc-stub"
  mkdir -p "$stub/bin" "$stub/include"
  ln -sf "$(command -v clang)" "$stub/bin/clang-cl"
  [ -f "$stub/include/assert.h" ] || printf '#pragma once\n#define assert(x) ((void)0)\n' > "$stub/include/assert.h"
  [ -f "$stub/include/string.h" ] || printf '#pragma once\ntypedef unsigned long long size_t;\nvoid *memcpy(void *, const void *, size_t);\nvoid *memset(void *, int, size_t);\nint memcmp(const void *, const void *, size_t);\nvoid *memmove(void *, const void *, size_t);\n' > "$stub/include/string.h"
  [ -f "$stub/include/stdlib.h" ] || printf '#pragma once\n#include <string.h>\nvoid abort(void);\n' > "$stub/include/stdlib.h"
  echo "$stub"
}
