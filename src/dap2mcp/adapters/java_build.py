"""Java programs as the JVM runs them: a single `.java` file compiled with `javac -g` into the cache, a Maven project
built with `mvn compile` (or `test-compile`) and its class path asked of Maven, a jar's main class read from its
manifest, the source folders a class's file is looked for in, and the JDWP agent's address on a running JVM's
command line (mode `attach`)."""

from __future__ import annotations

import os
import re
import shlex
import zipfile
from dataclasses import dataclass

from ..errors import DebugError, ErrorCode
from .build import MESSAGE_CHARS, cache_dir, output_for, run_tool

PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
MAIN_METHOD = re.compile(r"\bstatic\s+(?:final\s+)?(?:public\s+)?void\s+main\s*\(\s*(?:final\s+)?String\s*(?:\[\]|\.\.\.)\s*\w+"
                         r"|\bpublic\s+static\s+void\s+main\s*\(\s*(?:final\s+)?String\s+\w+\s*\[\]")
"""`public static void main(String[] args)` in its spellings (`String... args`, `String args[]`, modifiers in any order)."""
MAVEN_MAIN = ("src", "main", "java")
MAVEN_TEST = ("src", "test", "java")
MAVEN_BUILD = 180.0
"""The most a Maven build may take (a first build fetches its plugins and dependencies from the network)."""


def is_maven_project(path: str) -> bool:
    return os.path.isdir(path) and os.path.isfile(os.path.join(path, "pom.xml"))


def package_of(source: str) -> str:
    """The package a `.java` file declares, '' for the default package."""
    try:
        with open(source, encoding="utf-8", errors="replace") as handle:
            found = PACKAGE.search(handle.read(65536))
    except OSError:
        return ""
    return found[1] if found else ""


def source_root(source: str) -> str:
    """The folder a `.java` file's package starts in: `src/` for `src/com/acme/App.java` in package `com.acme`."""
    folder = os.path.dirname(os.path.abspath(source))
    package = package_of(source)
    for _ in package.split(".") if package else ():
        folder = os.path.dirname(folder)
    return folder


def compile_file(javac: str, source: str) -> tuple[str, str]:
    """`source` compiled with `javac -g` (with the files of its source folder it uses) into a folder of the cache;
    returns (that folder, the class to run)."""
    if not os.path.isfile(source):
        raise DebugError(ErrorCode.FILE_NOT_FOUND, f"program not found: {source}")
    classes = str(output_for(source)) + ".classes"
    os.makedirs(classes, exist_ok=True)
    root = source_root(source)
    code, said = run_tool([javac, "-g", "-encoding", "UTF-8", "-implicit:class", "-sourcepath", root, "-d", classes, source],
                          cwd=os.path.dirname(source))
    if code != 0:
        raise DebugError(ErrorCode.BUILD_FAILED, f"javac failed (exit {code}):\n{_cut(said)}")
    package = package_of(source)
    stem = os.path.splitext(os.path.basename(source))[0]
    return classes, f"{package}.{stem}" if package else stem


@dataclass(frozen=True)
class MavenBuild:
    classpath: tuple[str, ...]
    """The project's classes, then its dependencies' jars (from the local repository)."""
    sources: tuple[str, ...]
    """The project's source folders (main, and test for a test build)."""


def maven_build(mvn: str, project: str, env: dict[str, str], tests: bool) -> MavenBuild:
    """`mvn compile` (or `test-compile`) in `project`, and the class path Maven resolves for it (`runtime` scope, or
    `test`), written to a file in the cache; BUILD_FAILED with Maven's words where either fails."""
    listing = cache_dir() / "build" / "maven" / (output_for(os.path.join(project, "pom.xml")).parent.name + ("-test" if tests else ""))
    listing.parent.mkdir(parents=True, exist_ok=True)
    scope = "test" if tests else "runtime"
    command = [mvn, "-q", "-B", "test-compile" if tests else "compile", "dependency:build-classpath",
               f"-Dmdep.outputFile={listing}", f"-Dmdep.includeScope={scope}"]
    code, said = run_tool(command, cwd=project, env={**os.environ, **env}, timeout=MAVEN_BUILD)
    if code != 0:
        raise DebugError(ErrorCode.BUILD_FAILED, f"mvn failed (exit {code}):\n{_cut(_maven_errors(said))}")
    try:
        dependencies = [p for p in listing.read_text(encoding="utf-8").strip().split(os.pathsep) if p]
    except OSError:
        dependencies = []
    target = os.path.join(project, "target")
    own = [os.path.join(target, "test-classes")] if tests else []
    folders = [MAVEN_MAIN, MAVEN_TEST] if tests else [MAVEN_MAIN]
    return MavenBuild(tuple([*own, os.path.join(target, "classes"), *dependencies]),
                      tuple(os.path.join(project, *folder) for folder in folders if os.path.isdir(os.path.join(project, *folder))))


def _maven_errors(said: str) -> str:
    """Maven's `[ERROR]` lines, where there are any (its advice on re-running with -e, -X and the help pages left out)."""
    errors = [line for line in said.splitlines() if line.startswith("[ERROR]")
              and not re.search(r"Re-run Maven|-e switch|-X switch|full debug|For more information|Help 1|^\[ERROR\] *$", line)]
    return "\n".join(errors) or said


def main_classes(folder: str) -> list[str]:
    """The classes under a source folder that declare `public static void main`, by their names."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".java"):
                path = os.path.join(root, name)
                try:
                    with open(path, encoding="utf-8", errors="replace") as handle:
                        text = handle.read()
                except OSError:
                    continue
                if MAIN_METHOD.search(text):
                    package = PACKAGE.search(text)
                    found.append(f"{package[1]}.{name[:-5]}" if package else name[:-5])
    return found


def project_main(project: str, given: str | None) -> str:
    """The class a Maven project runs: the one given, else the one class of `src/main/java` with a main method."""
    if given:
        return given
    found = main_classes(os.path.join(project, *MAVEN_MAIN))
    if len(found) == 1:
        return found[0]
    raise DebugError(ErrorCode.INVALID_ARGUMENT, f"give mainClass: {project} has "
                     + (f"{len(found)} classes with a main method ({', '.join(found[:10])})" if found
                        else "no class with a main method in src/main/java"))


def jar_main(jar: str) -> str | None:
    """The `Main-Class` of a jar's manifest, or None."""
    try:
        with zipfile.ZipFile(jar) as archive:
            manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    unfolded = manifest.replace("\r\n", "\n").replace("\n ", "")
    found = re.search(r"^Main-Class:\s*(\S+)", unfolded, re.MULTILINE)
    return found[1] if found else None


def sources_for(classpath: list[str] | tuple[str, ...], also: list[str]) -> tuple[str, ...]:
    """Where the sources of classes on `classpath` may be: a folder of classes itself (`javac -d . App.java`), and
    Maven's source folders beside `target/classes` and `target/test-classes`, or above a jar in `target/`; then `also`."""
    found: list[str] = []
    for entry in classpath:
        entry = os.path.abspath(entry)
        parent = os.path.dirname(entry)
        if os.path.isdir(entry):
            found.append(entry)
            if os.path.basename(entry) in ("classes", "test-classes") and os.path.basename(parent) == "target":
                project = os.path.dirname(parent)
                found.append(os.path.join(project, *(MAVEN_TEST if entry.endswith("test-classes") else MAVEN_MAIN)))
        elif entry.endswith(".jar") and os.path.basename(parent) == "target":
            found.append(os.path.join(os.path.dirname(parent), *MAVEN_MAIN))
    found += [os.path.abspath(a) for a in also]
    for folder in list(found):
        for layout in (MAVEN_MAIN, MAVEN_TEST):
            found.append(os.path.join(folder, *layout))
    return tuple(dict.fromkeys(f for f in found if os.path.isdir(f)))


@dataclass(frozen=True)
class RunningJvm:
    host: str
    port: int
    classpath: tuple[str, ...]
    cwd: str


def running_jvm(pid: int) -> RunningJvm:
    """Where the JDWP agent of process `pid` listens, from its command line (`-agentlib:jdwp=…` or `-Xrunjdwp:…`) or
    its `JAVA_TOOL_OPTIONS`, with its class path and working directory; INVALID_ARGUMENT where it has no agent that
    listens."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            argv = [a.decode("utf-8", "replace") for a in handle.read().split(b"\0") if a]
    except OSError as exc:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot read process {pid}'s command line: {exc}") from None
    words = list(argv)
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            for item in handle.read().split(b"\0"):
                if item.startswith((b"JAVA_TOOL_OPTIONS=", b"JDK_JAVA_OPTIONS=")):
                    words += shlex.split(item.split(b"=", 1)[1].decode("utf-8", "replace"))
    except (OSError, ValueError):
        pass
    options = None
    for word in words:
        if word.startswith("-agentlib:jdwp="):
            options = word[len("-agentlib:jdwp="):]
        elif word.startswith("-Xrunjdwp:"):
            options = word[len("-Xrunjdwp:"):]
    start = "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:5005"
    if options is None:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"process {pid} runs without the JDWP agent, so no debugger can "
                         f"reach it; start it with {start} (any free port), then debug it with mode 'attach' "
                         "(its processId) or 'connect' (address 127.0.0.1:5005)")
    fields = dict(part.split("=", 1) for part in options.split(",") if "=" in part)
    if fields.get("server", "n") != "y":
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"process {pid}'s JDWP agent connects out to a debugger "
                         f"(server=n) rather than listening for one: start it with {start}")
    if fields.get("transport", "dt_socket") != "dt_socket":
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"process {pid}'s JDWP agent uses transport "
                         f"{fields.get('transport')}: only dt_socket (TCP) is reached")
    address = fields.get("address", "")
    host, _, port = address.rpartition(":")
    if port == "0":  # the agent chose a port itself (and printed it): the one the process listens on
        listening = listening_ports(pid)
        if len(listening) != 1:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"process {pid}'s JDWP agent listens on a port it chose "
                             f"(address=...:0) and the process listens on {len(listening)} ports "
                             f"({', '.join(map(str, listening)) or 'none'}): use mode 'connect' with the address the "
                             "agent printed ('Listening for transport dt_socket at address: N')")
        port = str(listening[0])
    if not port.isdigit():
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"process {pid}'s JDWP agent names no port ({options}): start "
                         f"it with {start}")
    if host in ("", "*", "0.0.0.0", "::", "[::]", "localhost"):
        host = "127.0.0.1"
    classpath: list[str] = []
    for i, word in enumerate(argv):
        if word in ("-cp", "-classpath", "--class-path") and i + 1 < len(argv):
            classpath += argv[i + 1].split(os.pathsep)
        elif word == "-jar" and i + 1 < len(argv):
            classpath.append(argv[i + 1])
    try:
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        cwd = "/"
    classpath = [p if os.path.isabs(p) else os.path.join(cwd, p) for p in classpath]
    return RunningJvm(host.strip("[]"), int(port), tuple(classpath), cwd)


def listening_ports(pid: int) -> list[int]:
    """The TCP ports process `pid` listens on (its sockets in /proc/net/tcp and tcp6 in state LISTEN)."""
    try:
        inodes = {os.readlink(f"/proc/{pid}/fd/{fd}")[8:-1] for fd in os.listdir(f"/proc/{pid}/fd")
                  if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:[")}
    except OSError:
        return []
    ports = set()
    for table in ("tcp", "tcp6"):
        try:
            with open(f"/proc/{pid}/net/{table}", encoding="ascii") as handle:
                rows = handle.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 9 and fields[3] == "0A" and fields[9] in inodes:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return sorted(ports)


def _cut(text: str) -> str:
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS] + f"\n… ({len(text) - MESSAGE_CHARS} more characters)"
