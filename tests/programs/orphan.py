"""Leaves a grandchild behind: it outlives the program and is re-parented away from it."""

import subprocess
import sys

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print("child", child.pid, flush=True)
