#!/usr/bin/env bash
# Installs the Debian packages the app and its tests need: Chromium for the browser
# tests, Noto CJK fonts so Chinese card text never renders as tofu, poppler-utils for
# pdftoppm in the print tests. Skips apt when everything is already present.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || need+=(fonts-noto-cjk)
command -v pdftoppm >/dev/null || need+=(poppler-utils)
fc-list 2>/dev/null | grep -qi "DejaVu Sans" || need+=(fonts-dejavu-core)
# TrueType-outline CJK font for the print PDF text layer (reportlab cannot embed Noto CJK's CFF).
fc-list 2>/dev/null | grep -qi "WenQuanYi Zen Hei" || need+=(fonts-wqy-zenhei)
fc-list 2>/dev/null | grep -qi "DejaVu Serif:style=Italic" || need+=(fonts-dejavu-extra)
# Libraries the PennMUSH/TinyMUX test servers in ../shared/tools/mush link against (MUSH export tests).
ldconfig -p 2>/dev/null | grep -q "libsqlite3.so.0" || need+=(libsqlite3-0)
ldconfig -p 2>/dev/null | grep -q "libssl.so.3" || need+=(libssl3)
command -v valgrind >/dev/null || need+=(valgrind)  # benchmarks/instructions.py counts instructions with it
command -v npm >/dev/null || need+=(npm)  # axe-core for the browser tests' accessibility checks
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi
