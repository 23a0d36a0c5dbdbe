# minitorch: skip-cell (Python for Google Colab; the MiniTorch kernel does not run it)
# Google Colab: run this cell first. Colab opens the notebook in its own Python runtime until the
# MiniTorch kernel is installed on the VM; this cell installs it (a few minutes: Debian packages
# and a build with CUDA), then reload the page and Colab connects the notebook to it. Outside
# Colab the cell does nothing.
import sys
if "google.colab" in sys.modules:
    REPO_URL = "https://github.com/@GITHUB_REPO@.git"
    !test -d /content/minitorch-kernel || git clone -q --depth 1 {REPO_URL} /content/minitorch-kernel
    !bash /content/minitorch-kernel/tools/colab-setup.sh
