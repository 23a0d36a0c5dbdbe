#!/usr/bin/env bash
# The browser test: JupyterLab from .venv and Debian's Chromium (headless, through Playwright)
# run every course notebook with one kernel binary and measure what they show
# (tests/browser/test_lab.py). Screenshots and the HTML export go to tests/browser/artifacts/.
#
#   tools/run-browser-tests.sh KERNEL_BIN
#
# The kernelspec goes into a temporary directory. Fails when Chromium or Playwright is missing
# (tools/setup.sh installs both), never skips.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/kernel-test-env.sh"
[ -x /usr/bin/chromium ] || { echo "error: /usr/bin/chromium missing; run tools/setup.sh" >&2; exit 1; }
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

# -rP: each notebook's Run All time and output widths; --durations: the slow tests
timeout 1500 "$PY" -m pytest -p no:cacheprovider tests/browser -v -rP --durations=0
