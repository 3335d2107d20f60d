"""Starts a child whose command line is not UTF-8 (a file name in Latin-1, say), which the `debug`
result names in its hint (tests/e2e/test_limits.py)."""

import os
import subprocess
import sys

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", os.fsdecode(b"caf\xe9.txt")])
print("started", child.pid)  # marker: started
child.kill()
child.wait()
