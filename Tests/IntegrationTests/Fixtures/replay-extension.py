#!/usr/bin/env python3
"""A hostile extension for the reader fuzz test: it speaks the protocol well enough to be
called, and on `fuzz.emit` writes whatever bytes it is told to on fd 4 before (or instead of)
its real answer. `$ID` in a chunk becomes the id of the fuzz.emit request."""
import base64
import json
import os
import sys

host = os.fdopen(3, "rb")
wire = os.fdopen(4, "wb", buffering=0)


def send(message):
    wire.write((json.dumps(message, separators=(",", ":")) + "\n").encode())


for line in host:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    method, request_id = message.get("method"), message.get("id")
    if method is None:
        # The host sent a response, which it must only do for requests the extension made.
        sys.stderr.write("replay-extension received a response: %s" % line.decode(errors="replace"))
        sys.stderr.flush()
        continue
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": request_id, "result": {
            "protocolVersion": 1, "methods": ["status", "fuzz.emit"],
            "runtime": {"name": "replay-extension", "version": "1"}}})
    elif method == "status":
        send({"jsonrpc": "2.0", "id": request_id, "result": {
            "passEntriesAvailable": True, "remotePassEntriesAvailable": False, "requiresAuthentication": False}})
    elif method == "fuzz.emit":
        params = message.get("params") or {}
        for chunk in params.get("chunks", []):
            data = base64.b64decode(chunk["bytes"]).replace(b"$ID", json.dumps(request_id).encode())
            for _ in range(chunk.get("repeat", 1)):
                wire.write(data)
        if params.get("exit"):
            os._exit(0)
        if params.get("answer", True):
            wire.write(b"\n")
            send({"jsonrpc": "2.0", "id": request_id, "result": {"ok": True}})
    elif method == "shutdown":
        send({"jsonrpc": "2.0", "id": request_id, "result": None})
    elif method == "exit":
        sys.exit(0)
