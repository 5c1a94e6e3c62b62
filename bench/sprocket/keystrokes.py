#!/usr/bin/env python3
"""Keystroke -> diagnostics latency of a language server over stdio.

usage: keystrokes.py [--keystrokes K] [--mode pull|push] [--language-id ID]
                     [--name NAME] [--json OUT] FILE -- SERVER [ARGS...]
       keystrokes.py --ratio BASELINE.json SUBJECT.json

Starts SERVER (with FILE's directory as its working directory and workspace
root), initializes it as a client that supports both pull diagnostics
(`textDocument/diagnostic`) and versioned `publishDiagnostics`, opens FILE,
and waits for its first diagnostics. Then it types one character into the
string literal of the middle `label = "..."` of the file and deletes it,
alternately, K times: each keystroke is one incremental `didChange` with a new
version, timed from the first byte of the `didChange` to its diagnostics:

- `pull`: the answer to the `textDocument/diagnostic` sent right after the
  change (a server handles its messages in order, so the answer is the new
  version's); the server must announce `diagnosticProvider`;
- `push`: the `publishDiagnostics` carrying the change's version (the client
  then does not declare pull diagnostics).

Every message is serialised before its clock starts. Positions are UTF-16
(the default encoding, the only one offered). The first diagnostics and
every keystroke's are checked: an error diagnostic fails the run (exit
status 1), since the workload and its edits are meant to be valid.

The keystrokes start half a second after the first diagnostics (work a
server does after opening is not counted against them). Prints didOpen ->
first diagnostics, then p50, p90, p99 and max of the keystrokes (nearest
rank) and the server's CPU time per keystroke (all its threads, from
/proc/PID/task/*/schedstat on Linux: less sensitive to a busy machine than
the wall times); `--json` also writes them to OUT. `--ratio`
prints how many times SUBJECT's p50 (and CPU per keystroke) is BASELINE's.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

ERROR = 1


def percentile(sorted_ms, p):
    return sorted_ms[max(0, math.ceil(p / 100 * len(sorted_ms)) - 1)]


def cpu_ms(pid):
    """The CPU time of a process's live threads, or None off Linux."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
    except OSError:
        return None
    return total / 1e6


def utf16_position(text, offset):
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    column = sum(2 if ord(c) > 0xFFFF else 1 for c in text[start:offset])
    return {"line": line, "character": column}


class Server:
    def __init__(self, command, cwd, log):
        self.process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log
        )
        self.next_id = 0

    def frame(self, message):
        body = json.dumps(message, ensure_ascii=False).encode()
        return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)

    def request_message(self, method, params):
        self.next_id += 1
        return self.next_id, {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}

    def send(self, framed):
        self.process.stdin.write(framed)
        self.process.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"the server closed its output (exit status {self.process.wait()})")
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def wait_for(self, matches):
        """Reads messages until one `matches`, answering the server's requests."""
        while True:
            message = self.receive()
            if "method" in message and "id" in message:
                self.answer(message)
            elif matches(message):
                return message

    def answer(self, message):
        method = message["method"]
        if method == "workspace/configuration":
            result = [None for _ in message["params"]["items"]]
        else:  # progress tokens, registrations, refreshes: accepted
            result = None
        self.send(self.frame({"jsonrpc": "2.0", "id": message["id"], "result": result}))

    def request(self, method, params):
        id, message = self.request_message(method, params)
        self.send(self.frame(message))
        return self.result(id)

    def result(self, id):
        response = self.wait_for(lambda m: m.get("id") == id and "method" not in m)
        if "error" in response:
            raise SystemExit(f"request {id} failed: {response['error']}")
        return response["result"]

    def notify(self, method, params):
        self.send(self.frame({"jsonrpc": "2.0", "method": method, "params": params}))

    def stop(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.process.stdin.close()
            self.process.wait(timeout=10)
        except (subprocess.TimeoutExpired, BrokenPipeError, SystemExit):
            self.process.kill()
            self.process.wait()


def client_capabilities(mode):
    text_document = {
        "synchronization": {"dynamicRegistration": False, "didSave": False},
        "publishDiagnostics": {"versionSupport": True, "relatedInformation": True},
    }
    if mode == "pull":
        text_document["diagnostic"] = {"dynamicRegistration": False, "relatedDocumentSupport": False}
    return {
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": text_document,
        "workspace": {"workspaceFolders": True, "configuration": True},
        "window": {"workDoneProgress": False},
    }


def check(diagnostics, when):
    """Fails on an error diagnostic; returns the counts per severity."""
    errors = [d for d in diagnostics if d.get("severity", ERROR) == ERROR]
    if errors:
        shown = "\n".join(
            f"  {d['range']['start']['line'] + 1}:{d['range']['start']['character'] + 1}: {d['message']}"
            for d in errors[:10]
        )
        raise SystemExit(f"{len(errors)} error(s) {when}:\n{shown}")
    counts = {}
    for d in diagnostics:
        counts[d.get("severity", ERROR)] = counts.get(d.get("severity", ERROR), 0) + 1
    return counts


def measure(args):
    with open(args.file, encoding="utf-8") as f:
        text = f.read()
    directory = os.path.dirname(os.path.abspath(args.file))
    uri = "file://" + os.path.abspath(args.file)
    folder = "file://" + directory
    log = open(os.path.join(directory, f"{args.name}.stderr.log"), "wb")
    server = Server(args.server, directory, log)

    def diagnostic_request():
        return server.request_message("textDocument/diagnostic", {"textDocument": {"uri": uri}})

    def first_for(version):
        """Diagnostics of `version`: the pull's answer or the versioned push."""
        return lambda m: (
            m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri
            and m["params"].get("version") == version
        )

    try:
        answer = server.request(
            "initialize",
            {
                "processId": os.getpid(),
                "clientInfo": {"name": "keystrokes.py"},
                "rootUri": folder,
                "workspaceFolders": [{"uri": folder, "name": os.path.basename(directory)}],
                "capabilities": client_capabilities(args.mode),
            },
        )
        capabilities = answer["capabilities"]
        sync = capabilities.get("textDocumentSync")
        sync = sync.get("change") if isinstance(sync, dict) else sync
        if args.mode == "pull" and not capabilities.get("diagnosticProvider"):
            raise SystemExit(f"{args.name} does not announce pull diagnostics: use --mode push")
        server.notify("initialized", {})

        def diagnostics(version, pull_id):
            if args.mode == "pull":
                result = server.result(pull_id)
                if result.get("kind") != "full":
                    raise SystemExit(f"unexpected diagnostic report: {result}")
                return result["items"]
            return server.wait_for(first_for(version))["params"]["diagnostics"]

        def timed(notification, version):
            framed = server.frame(notification)
            pull_id = None
            if args.mode == "pull":
                pull_id, pull = diagnostic_request()
                framed += server.frame(pull)
            started = time.perf_counter()
            server.send(framed)
            found = diagnostics(version, pull_id)
            return (time.perf_counter() - started) * 1e3, found

        opened, found = timed(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {"textDocument": {"uri": uri, "languageId": args.language_id, "version": 0, "text": text}},
            },
            0,
        )
        counts = check(found, "in the first diagnostics")
        names = {1: "errors", 2: "warnings", 3: "infos", 4: "hints"}
        summary = ", ".join(f"{n} {names.get(s, s)}" for s, n in sorted(counts.items())) or "none"
        print(f"{args.name}: didOpen -> first diagnostics {opened:.1f} ms ({summary})")
        for d in found[:5]:
            print(f"    {d['range']['start']['line'] + 1}: {d['message']}")

        labels = []
        at = text.find('label = "')
        while at >= 0:
            labels.append(at + len('label = "'))
            at = text.find('label = "', at + 1)
        if not labels:
            raise SystemExit(f"no `label = \"...\"` in {args.file}")
        offset = labels[len(labels) // 2]
        time.sleep(0.5)
        cpu_before = cpu_ms(server.process.pid)
        samples = []
        version = 0
        for k in range(args.keystrokes):
            version += 1
            typed = k % 2 == 0
            start = utf16_position(text, offset)
            if typed:
                change = {"range": {"start": start, "end": start}, "text": "x"}
                text = text[:offset] + "x" + text[offset:]
            else:
                end = utf16_position(text, offset + 1)
                change = {"range": {"start": start, "end": end}, "text": ""}
                text = text[:offset] + text[offset + 1:]
            if sync != 2:  # full sync
                change = {"text": text}
            elapsed, found = timed(
                {
                    "jsonrpc": "2.0",
                    "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
                },
                version,
            )
            check(found, f"after keystroke {k + 1}")
            samples.append(elapsed)
        cpu_after = cpu_ms(server.process.pid)
    finally:
        server.stop()
        log.close()

    ordered = sorted(samples)
    result = {
        "name": args.name,
        "mode": args.mode,
        "sync": {1: "full", 2: "incremental"}.get(sync, sync),
        "keystrokes": len(samples),
        "open_ms": opened,
        "p50": percentile(ordered, 50),
        "p90": percentile(ordered, 90),
        "p99": percentile(ordered, 99),
        "max": ordered[-1],
        "cpu_per_keystroke": None if cpu_before is None else (cpu_after - cpu_before) / len(samples),
    }
    print(
        "{name}: {keystrokes} keystrokes ({mode}, {sync} sync) -> diagnostics: "
        "p50 {p50:.2f}  p90 {p90:.2f}  p99 {p99:.2f}  max {max:.2f} ms".format(**result)
        + ("" if result["cpu_per_keystroke"] is None else f"; CPU {result['cpu_per_keystroke']:.2f} ms each")
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f)


def main():
    argv = sys.argv[1:]
    if argv[:1] == ["--ratio"]:
        if len(argv) != 3:
            sys.exit("usage: keystrokes.py --ratio BASELINE.json SUBJECT.json")
        baseline, subject = (json.load(open(path)) for path in argv[1:])
        print(
            f"p50 {subject['name']} / {baseline['name']} ({baseline['mode']}): "
            f"{subject['p50']:.2f} / {baseline['p50']:.2f} ms = {subject['p50'] / baseline['p50']:.0f}x"
        )
        if subject.get("cpu_per_keystroke") and baseline.get("cpu_per_keystroke"):
            print(
                f"CPU per keystroke {subject['name']} / {baseline['name']}: "
                f"{subject['cpu_per_keystroke']:.2f} / {baseline['cpu_per_keystroke']:.2f} ms"
                f" = {subject['cpu_per_keystroke'] / baseline['cpu_per_keystroke']:.0f}x"
            )
        return
    if "--" not in argv:
        sys.exit(__doc__.split("\n\n")[1])
    split = argv.index("--")
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    parser.add_argument("file")
    parser.add_argument("--keystrokes", type=int, default=50)
    parser.add_argument("--mode", choices=["pull", "push"], default="pull")
    parser.add_argument("--language-id", default="plaintext")
    parser.add_argument("--name", default="server")
    parser.add_argument("--json")
    args = parser.parse_args(argv[:split])
    args.server = argv[split + 1:]
    if not args.server or args.keystrokes < 1:
        sys.exit(__doc__.split("\n\n")[1])
    measure(args)


if __name__ == "__main__":
    main()
