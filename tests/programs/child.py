import subprocess
import sys

done = subprocess.run([sys.executable, "-c", "print('child says hi')"], capture_output=True, text=True, timeout=20)
print("child output:", done.stdout.strip(), "rc", done.returncode)
