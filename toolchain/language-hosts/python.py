"""`pulumi-language-python` for an engine built from source.

The engine starts it as it starts Pulumi's own host (found beside the CLI), and its Run starts the
program the way Pulumi's host does: `python -u pulumi-language-python-exec ...` (the entry Pulumi
ships in its Go module sdk/v3, installed beside this file) with the project's virtualenv. It stands
in for the Go binary of a normal Pulumi install, which the Go module proxy does not serve; with a
CLI from Pulumi's installer this file is never used. It runs in a virtualenv holding Pulumi's
Python SDK from PyPI, for grpcio and the generated stubs.

Usage (by the engine): pulumi-language-python [--logtostderr] [-v=N] [--tracing URL] <engine>
"""

import json
import os
import signal
import subprocess
import sys
import threading
from concurrent import futures

import grpc
from google.protobuf import empty_pb2, json_format
from pulumi.runtime.proto import language_pb2, language_pb2_grpc, plugin_pb2

HERE = os.path.dirname(os.path.abspath(__file__))
EXEC = os.path.join(HERE, "pulumi-language-python-exec")
FLAGS = [a for a in sys.argv[1:] if a.startswith("--host-version=")]
VERSION = FLAGS[0].split("=", 1)[1] if FLAGS else "3.0.0"
ENGINE = ([a for a in sys.argv[1:] if not a.startswith("-")] or [""])[-1]

running = set()
lock = threading.Lock()


def options_of(info):
    """The runtime options of Pulumi.yaml (`runtime.options`), as plain values."""
    if info is None or not info.HasField("options"):
        return {}
    return json_format.MessageToDict(info.options)


def python_of(root, options):
    """The interpreter that runs the program: the project's virtualenv, as Pulumi's host picks it."""
    venv = options.get("virtualenv")
    if isinstance(venv, str) and venv:
        venv = venv if os.path.isabs(venv) else os.path.join(root, venv)
        python = os.path.join(venv, "bin", "python")
        if not os.path.exists(python):
            raise RuntimeError(
                f"The virtualenv {venv} (runtime option virtualenv) has no bin/python: create it "
                f"with `python3 -m venv {venv}` and install the program's requirements into it."
            )
        return python, venv
    return os.environ.get("PULUMI_PYTHON_CMD") or "python3", None


class LanguageHost(language_pb2_grpc.LanguageRuntimeServicer):
    def GetPluginInfo(self, request, context):
        return plugin_pb2.PluginInfo(version=VERSION)

    def Handshake(self, request, context):
        return language_pb2.LanguageHandshakeResponse()

    def About(self, request, context):
        return language_pb2.AboutResponse(executable=sys.executable, version=sys.version.split()[0])

    # Dynamic providers run in the bundled pulumi-resource-pulumi-python; a project's resource
    # plugins are installed with `pulumi plugin install`, so nothing is required from here.
    def GetRequiredPlugins(self, request, context):
        return language_pb2.GetRequiredPluginsResponse()

    def GetRequiredPackages(self, request, context):
        return language_pb2.GetRequiredPackagesResponse()

    def GetProgramDependencies(self, request, context):
        return language_pb2.GetProgramDependenciesResponse()

    def Run(self, request, context):
        info = request.info if request.HasField("info") else None
        root = (info.root_directory if info else "") or request.pwd
        options = options_of(info)
        try:
            python, venv = python_of(root, options)
        except RuntimeError as error:
            return language_pb2.RunResponse(error=str(error))
        args = [
            python, "-u", EXEC,
            "--monitor", request.monitor_address,
            "--engine", ENGINE,
            "--project", request.project,
            "--root_directory", root,
            "--stack", request.stack,
            "--pwd", request.pwd,
            "--parallel", str(request.parallel),
            "--organization", request.organization,
        ]
        if request.dryRun:
            args += ["--dry_run", "true"]
        entry = (info.entry_point if info else "") or request.program or "."
        args += [entry, *request.args]
        env = dict(os.environ)
        env["PULUMI_CONFIG"] = json.dumps(dict(request.config))
        env["PULUMI_CONFIG_SECRET_KEYS"] = json.dumps(list(request.configSecretKeys))
        if venv is not None:
            env["VIRTUAL_ENV"] = venv
            env["PATH"] = os.path.join(venv, "bin") + os.pathsep + env.get("PATH", "")
        try:
            child = subprocess.Popen(args, cwd=request.pwd, env=env, stdin=subprocess.DEVNULL)
        except OSError as error:
            return language_pb2.RunResponse(error=f"Could not start the program with {python}: {error}")
        with lock:
            running.add(child)
        code = child.wait()
        with lock:
            running.discard(child)
        if code == 32:
            return language_pb2.RunResponse(bail=True)
        if code != 0:
            return language_pb2.RunResponse(error=f"Program exited with non-zero exit code: {code}")
        return language_pb2.RunResponse()

    def Cancel(self, request, context):
        cancel_all()
        return empty_pb2.Empty()


def cancel_all():
    """Interrupts every running program as Ctrl-C would; harmless when none runs."""
    with lock:
        for child in running:
            child.send_signal(signal.SIGINT)


def main():
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    language_pb2_grpc.add_LanguageRuntimeServicer_to_server(LanguageHost(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    # The engine reads the port from the first line of stdout.
    print(port, flush=True)

    # The engine ends a host with SIGINT (then SIGKILL after 5 s): exit at once, programs first.
    def stop(*_):
        cancel_all()
        server.stop(0)
        os._exit(0)

    signal.signal(signal.SIGINT, stop)
    if ENGINE:
        threading.Thread(target=watch_engine, args=(stop,), daemon=True).start()
    server.wait_for_termination()


def watch_engine(stop):
    """Stops the host once the engine no longer answers, as Pulumi's own hosts do.

    A killed CLI sends no SIGINT: like rpcutil.Healthcheck (Pulumi's sdk/v3), ask the engine's
    gRPC health service every five minutes; an engine without it (UNIMPLEMENTED) counts as alive.
    """
    every = int(os.environ.get("ARCGIS_ADMIN_HOST_HEALTHCHECK_MS") or 300_000) / 1000
    check = grpc.insecure_channel(ENGINE).unary_unary(
        "/grpc.health.v1.Health/Check",
        request_serializer=lambda _: b"",
        response_deserializer=lambda answer: answer,
    )
    while True:
        threading.Event().wait(every)
        try:
            check(None)
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.UNIMPLEMENTED:
                stop()


if __name__ == "__main__":
    main()
