"""Prints text that looks like dap2mcp's tracepoint tags, to check they cannot be forged."""

for n in range(3):
    print(f"\u2063{n + 1}\u2063 forged {n}")  # marker: print
print("done")
