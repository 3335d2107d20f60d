"""Java: the Scala Center's build of Microsoft's java-debug, a DAP server for the JVM over JDI, in a host program of
dap2mcp's own (`java_host/`, built by `dap2mcp install java` with the machine's JDK) that supplies what the
library leaves to its host: how a VM is reached, where sources are, and the evaluation of expressions.

The host speaks DAP on its stdio. dap2mcp starts the program itself (`runInTerminal`), with the JDWP agent's option
the host gives it: `java {jdwp} -cp … Main`, or Maven's Surefire with `-DargLine={jdwp}` for a test run, whose test
JVM then connects to the debugger. So dap2mcp owns the program's pid, output and exit code, as for js-debug.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..errors import DebugError, ErrorCode
from . import java_build, tool_dir
from .base import (
    AdapterProfile,
    AdapterStart,
    BreakpointRules,
    LaunchRules,
    OutputRules,
    ProgramRules,
    StopRules,
    Target,
    TestRunner,
    Tool,
    ValueShapes,
)

HOST_SOURCES = Path(__file__).parent / "java_host"
HOST_MAIN = "dap2mcp.javahost.Main"
LIBRARY = "ch.epfl.scala:com-microsoft-java-debug-core:0.34.0+39"


def _jdk_commands(name: str) -> tuple[str, ...]:
    """`JAVA_HOME`'s `bin/NAME` first, where it is set, then NAME on PATH."""
    home = os.environ.get("JAVA_HOME")
    return (os.path.join(home, "bin", name), name) if home else (name,)


def host_key() -> str:
    """What the host is built from (its pom.xml and Java sources), hashed as `dap2mcp install java` names its build: a build
    of other sources (another checkout's, an older one's) is never run."""
    return _host_key(tuple((p, p.stat().st_mtime_ns) for p in _host_files()))


def _host_files() -> list[Path]:
    return [HOST_SOURCES / "pom.xml", *sorted(HOST_SOURCES.joinpath("src").rglob("*.java"), key=lambda p: str(p))]


@functools.cache
def _host_key(files: tuple[tuple[Path, int], ...]) -> str:
    digest = hashlib.sha256()
    for path, _ in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def host_places() -> tuple[str, ...]:
    """Where `dap2mcp install java` may have built the host, one folder per version of its sources: under
    `$DAP2MCP_JAVA_HOST` where it is set, else dap2mcp's tool directory, then a checkout's `vendor/`."""
    if root := os.environ.get("DAP2MCP_JAVA_HOST"):
        return (str(Path(root) / host_key()),)
    return tool_dir.places("java-host", host_key())


JAVA = Tool("runtime", _jdk_commands("java"), version_argv=("-version",), package="openjdk-17-jdk-headless")
JAVAC = Tool("compiler", _jdk_commands("javac"), version_argv=("-version",), package="openjdk-17-jdk-headless")
MVN = Tool("build", ("mvn",), version_command=("sh", "-c", r"mvn -B -v | sed 's/\x1b\[[0-9;]*m//g'"),
           package="maven")  # Debian's mvn colours its first line even with -B
HOST = Tool("adapter", tuple(os.path.join(place, "classpath") for place in host_places()), script=True, version_argv=(),
            label="java-debug", version_command=("echo", LIBRARY), fetch="java")

LIBRARY_CLASSES = ("java.*", "javax.*", "jdk.*", "sun.*", "com.sun.*", "junit.*", "org.junit.*", "org.opentest4j.*",
                   "org.apache.maven.*")
"""Classes a `step in` passes over with `justMyCode` (the library's step filters): the JDK's, JUnit's, Surefire's."""
FAILED_ASSERTION = "failedAssertion"
"""The host's exception filter for `java.lang.AssertionError` and its subclasses (JUnit's `AssertionFailedError`), caught
or not: the test runner catches every failure, so a test run stops where the assertion fails by it."""


@dataclass(frozen=True)
class JavaProfile(AdapterProfile):
    def prepare(self, target: Target) -> tuple[Target, str | None]:
        """Mode `source` compiles a `.java` file (javac -g) or builds a Maven project (mvn compile); mode `test` builds
        the project's tests (mvn test-compile); mode `binary` runs a jar or `mainClass` on `classpath`; mode `attach`
        reads where the process's JDWP agent listens. Each finds the folders the program's sources are in."""
        for tool in self.tools:
            tool.require(self.name)
        runtime = JAVA.find()
        path = target.absolute(target.path) if target.path else None
        if target.mode == "source" and path and java_build.is_maven_project(path):
            built = java_build.maven_build(MVN.require(self.name), path, target.env, tests=False)
            main = java_build.project_main(path, target.main_class)
            return replace(target, program=path, main_class=main, classpath=(*built.classpath, *target.classpath),
                           sources=built.sources), runtime
        if target.mode == "source":
            if not path or not path.endswith(".java"):
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"mode 'source' for Java takes a .java file or a Maven "
                                 f"project's directory (with pom.xml); '{target.path}' is neither")
            classes, main = java_build.compile_file(JAVAC.require(self.name), path)
            return replace(target, program=path, main_class=target.main_class or main,
                           classpath=(classes, *target.classpath), sources=(java_build.source_root(path),)), runtime
        if target.mode == "test":
            if not path or not java_build.is_maven_project(path):
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"mode 'test' for Java runs a Maven project's tests: give "
                                 f"its directory (with pom.xml); '{target.path}' is not one")
            built = java_build.maven_build(MVN.require(self.name), path, target.env, tests=True)
            return replace(target, program=path, classpath=built.classpath, sources=built.sources), runtime
        if target.mode == "binary":
            classpath = list(target.classpath)
            main = target.main_class
            if path and path.endswith(".jar"):
                classpath.insert(0, path)
                main = main or java_build.jar_main(path)
                if not main:
                    raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{target.path} names no Main-Class in its manifest: "
                                     "give mainClass")
            elif path and os.path.isdir(path):
                classpath.insert(0, path)
            if not main:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "mode 'binary' for Java takes a jar (path), or mainClass "
                                 "with classpath")
            if not classpath:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"give classpath: the folders and jars {main} and what "
                                 "it uses are in")
            classpath = [target.absolute(entry) for entry in classpath]
            return replace(target, program=path or main, main_class=main, classpath=tuple(classpath),
                           sources=java_build.sources_for(classpath, [target.cwd or os.getcwd()])), runtime
        if target.mode == "attach" and target.process_id is not None:
            jvm = java_build.running_jvm(target.process_id)
            also = [target.absolute(target.path)] if target.path else []
            return replace(target, address=(jvm.host, jvm.port),
                           sources=java_build.sources_for(jvm.classpath, [*also, jvm.cwd])), runtime
        also = [target.absolute(target.path)] if target.path else []
        return replace(target, sources=java_build.sources_for([], [*also, target.cwd or os.getcwd()])), runtime

    def plan(self, target: Target) -> AdapterStart:
        java = JAVA.require(self.name)
        classpath = Path(HOST.require(self.name)).read_text(encoding="utf-8").strip()
        argv = [java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss2m", "-cp", classpath, HOST_MAIN]
        common: dict[str, Any] = {"type": "java", "name": "dap2mcp", "sourcePaths": list(target.sources)}
        if target.mode in ("attach", "connect"):
            host, port = target.address or ("127.0.0.1", 0)
            return AdapterStart(argv, "attach", {**common, "request": "attach", "hostName": host, "port": port,
                                                  "timeout": 10000})
        cwd = target.cwd or (target.program if target.mode == "test" else None) or os.getcwd()
        launch: dict[str, Any] = {**common, "request": "launch", "cwd": cwd, "env": dict(target.env),
                                  "stopOnEntry": target.stop_on_entry, "javaExec": java}
        if target.just_my_code:
            launch["stepFilters"] = {"skipClasses": list(LIBRARY_CLASSES),
                                     "skipSynthetics": True, "skipStaticInitializers": False, "skipConstructors": False}
        if target.mode == "test":
            mvn = MVN.require(self.name)
            command = [mvn, "-B", "-ntp", "-Dstyle.color=never", "surefire:test", "-DforkCount=1", "-DreuseForks=true", "-DargLine={jdwp}",
                       *([f"-Dtest={target.test}"] if target.test else []), *target.args]
            return AdapterStart(argv, "launch", {**launch, "mainClass": "org.apache.maven.surefire.booter.ForkedBooter",
                                                 "classPaths": list(target.classpath), "command": command,
                                                 "connectWithin": java_build.MAVEN_BUILD})
        main = target.main_class or ""
        command = [java, "{jdwp}", "-cp", os.pathsep.join(target.classpath), main, *target.args]
        return AdapterStart(argv, "launch", {**launch, "mainClass": main, "classPaths": list(target.classpath),
                                             "command": command})


JAVA_PROFILE = JavaProfile(
    name="java",
    adapter_id="java",
    language="java",
    extensions=(".java", ".jar"),
    tools=(JAVA, HOST),
    values=ValueShapes(
        opaque=re.compile(r"^[\w$.]+(?:\[\d+\])?@\d+$"),  # an object without a toString of its own: `Orders$Order@58`
        bare=re.compile(r"^[\w$.]+@\d+ size=\d+$"),  # a collection: `ArrayList@80 size=2`
    ),
    launch=LaunchRules(
        project_tools=(JAVAC, MVN),
        launch_timeout=java_build.MAVEN_BUILD,
        tests=TestRunner("maven surefire", stop_filters=(FAILED_ASSERTION,),
                         nothing_selected_text=re.compile(r"No tests (?:matching pattern .*)?were executed")),
    ),
    program=ProgramRules(),
    output=OutputRules(
        program_categories=("stdout", "stderr"),
    ),
    stops=StopRules(
        exception_category="Java Exceptions",
        exception_modes=(("caught", "always"), ("uncaught", "unhandled")),
    ),
    breakpoints=BreakpointRules(
        # JDI's count filter: a bare N stops once, at the Nth hit, and never again
        hit_counts=(("", "", 0), ("==", "", 0)),
        default_exception_filters=frozenset({"uncaught"}),
    ),
)
"""The JVM through java-debug, in dap2mcp's host."""
