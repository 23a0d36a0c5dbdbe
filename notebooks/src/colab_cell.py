# minitorch: skip-cell (Google Colab's set-up; anywhere else there is nothing to run here)
#@title Google Colab only: run this cell first (it installs the MiniTorch kernel), then reload the page
import sys
if "google.colab" in sys.modules:
    REPO_URL = "https://github.com/@GITHUB_REPO@.git"
    !test -d /content/minitorch-kernel || git clone -q --depth 1 {REPO_URL} /content/minitorch-kernel
    !bash /content/minitorch-kernel/tools/colab-setup.sh
