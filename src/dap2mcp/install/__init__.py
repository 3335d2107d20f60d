"""`dap2mcp install`: the adapters' pieces that registry packages provide, fetched by dap2mcp itself without root,
so that a `pip install` or `uvx` of dap2mcp debugs every language a checkout's `scripts/install.sh` does."""
