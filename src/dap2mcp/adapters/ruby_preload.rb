# Preloaded (`ruby -r`) into a Ruby program that dap2mcp runs under rdbg (the debug gem's debugger, which runs in
# the program's own process).
#
# The program's stdout and stderr write through, as to a terminal, so what it printed before a stop is in the
# output at that stop, not only at its end.
$stdout.sync = true
$stderr.sync = true

# DAP's `setBreakpoints` gives a file's whole set of line breakpoints; rdbg 1.4.0 adds them to those it has and
# never removes one (nor changes a condition). Its DAP server takes each request on its reader thread, which
# adds the breakpoints: here the file's old ones are removed there first, so the set becomes the one given.
require 'debug/server_dap'

module Dap2mcpBreakpointsReplaced
  def recv_request
    request = super
    if request.is_a?(Hash) && request['command'] == 'setBreakpoints'
      path = request.dig('arguments', 'source', 'path')
      path = (@session.send(:resolve_path, path) rescue path)
      @session.instance_variable_get(:@bps).delete_if do |_key, bp|
        bp.is_a?(DEBUGGER__::LineBreakpoint) && bp.path == path && (bp.delete || true)
      end
    end
    request
  end
end

DEBUGGER__::UI_DAP.prepend(Dap2mcpBreakpointsReplaced)
