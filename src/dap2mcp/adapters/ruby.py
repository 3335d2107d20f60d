"""Ruby through rdbg, the `debug` gem's debugger (1.4.0 comes with Debian's Ruby 3.1, not on PATH: it lies in the
gem's `exe/` folder).

`rdbg --open` runs the program itself, paused before its first line, and serves DAP over TCP at the address it
prints on stderr; the program's output is rdbg's own stdout and stderr. rdbg 1.4.0 answers `launch` and
`attach` alike and has no hit conditions, log points, `setVariable`, data breakpoints or exception info; it
announces function breakpoints and sets none. Otherwise the profile is the generic one's defaults.
"""

from __future__ import annotations

import glob
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import DebugError, ErrorCode
from .base import (
    AdapterProfile,
    AdapterStart,
    EvaluationRules,
    OutputRules,
    ProgramRules,
    ReverseRules,
    StopRules,
    Target,
    Tool,
)

RUBY = Tool("runtime", ("ruby",), package="ruby")
RDBG = Tool("adapter", ("rdbg", *sorted(glob.glob("/usr/lib/ruby/gems/*/gems/debug-*/exe/rdbg"), reverse=True),
                        *sorted(glob.glob("/var/lib/gems/*/gems/debug-*/exe/rdbg"), reverse=True)),
            version_command=("ruby", "-e", "require 'debug/version'; puts \"debug gem #{DEBUGGER__::VERSION}\""),
            package="ruby", note="its debug gem brings rdbg", script=True, label="rdbg")
LISTENING = re.compile(r"(?=.*wait for debugger connection).*?Debugger can attach via TCP/IP "
                       r"\((?P<host>[^()\s]+):(?P<port>\d+)\)", re.DOTALL)
"""Where rdbg listens, once it also says it waits for a client (in either order): a client that connects before
is cut off, its session not made yet."""
QUIET = {"RUBY_DEBUG_SHOW_SRC_LINES": "0", "RUBY_DEBUG_SHOW_FRAMES": "0", "RUBY_DEBUG_NO_COLOR": "1"}
"""rdbg's console says nothing at its first pause: what it says before a client connects is sent to the first one
in its console protocol, even to a DAP client, which cannot read it."""
RECORDER = "DEBUGGER__::ThreadClient.current"
"""rdbg's per-thread client, which holds the thread's recorder (its console's `record on`, which DAP does not reach)."""
PRELOAD = Path(__file__).with_name("ruby_preload.rb")
"""Preloaded: output written through, and `setBreakpoints` made to replace a file's breakpoints (see the file)."""


@dataclass(frozen=True)
class RubyProfile(AdapterProfile):
    def plan(self, target: Target) -> AdapterStart:
        if target.mode == "connect":  # a program started with `rdbg --open --port N`
            return AdapterStart([], "attach", {}, address=target.address)
        if target.mode == "attach":
            raise DebugError(ErrorCode.NOT_SUPPORTED, "rdbg attaches only to a Ruby program started under it: run "
                             "it with `rdbg --open --port PORT program.rb` and use mode 'connect' with that address")
        if target.mode == "test":
            raise DebugError(ErrorCode.NOT_SUPPORTED, "the ruby adapter runs no test runner of its own: give the "
                             "runner's script (e.g. `bin/rails test`, a minitest file) with mode 'source'")
        argv = [RUBY.require(self.name), RDBG.require(self.name), "--open", "--host=127.0.0.1", "--port=0",
                "--", "-r", str(PRELOAD), target.program or target.absolute(target.path or ""), *target.args]
        request = "attach" if target.stop_on_entry else "launch"  # rdbg keeps a program it attaches to at its start
        return AdapterStart(argv, request, {}, env={**QUIET, **target.env}, listen=LISTENING, listen_on="stderr",
                            cwd=target.cwd)


RUBY_PROFILE = RubyProfile(
    name="ruby",
    adapter_id="rdbg",
    language="ruby",
    extensions=(".rb",),
    tools=(RUBY, RDBG),
    program=ProgramRules(adapter_is_program=True, untrue_capabilities=frozenset({"supportsFunctionBreakpoints"})),
    output=OutputRules(own_log_lines=re.compile(r"^DEBUGGER: [^\n]*\n", re.MULTILINE)),
    stops=StopRules(own_numbering=re.compile(r"\s*BP - .*"),  # " BP - Line  /path/app.rb:21 (line)"
                    entry_pause=True),
    evaluation=EvaluationRules(scopes_on_request=frozenset({"global variables"})),
    # rdbg 1.4.0 records each line's frames and locals (its `record on`) and answers DAP `stepBack` from them
    reverse=ReverseRules(
        record_on=f"(t = {RECORDER}; t.instance_variable_get(:@recorder) || t.instance_variable_set(:@recorder, "
                  "DEBUGGER__::ThreadClient::Recorder.new); t.recorder.enable; t.recorder.log.size)",
        record_off=f"{RECORDER}.recorder&.disable",
        replaying=f"{RECORDER}.recorder&.replaying?",
        replay_said=re.compile(r"^true|Can not evaluate on this frame"),  # its answer in a recorded frame
        step_back_answered=False,  # it sends the stop, and answers only when it cannot ('cancelled')
        cannot_continue="rdbg 1.4.0 steps back one line at a time only (its `reverseContinue`: 'not supported'); "
                        "adapter gdb continues back (C, C++)",
    ),
)
