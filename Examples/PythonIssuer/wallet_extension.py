"""wallet_extension: the extension side of wallet-host's wire protocol, standard library only.

A small counterpart of the Swift SDK's runtime for extensions written in Python
(docs/PROTOCOL.md is the contract). A script names its principal classes and calls run():

    import wallet_extension as wx

    class Handler:
        METHODS = ["status"]
        def status(self, call):
            return {"passEntriesAvailable": True, "remotePassEntriesAvailable": False,
                    "requiresAuthentication": False}

    wx.run("MyExt", wx.NON_UI_POINT, {"MyExt.Handler": Handler})

What it does for the script:
- refuses to run outside wallet-host (no WALLET_EXTENSION_PROTOCOL, or fds 3/4 not open);
- reads fd 3 on the main thread: 16 MiB line cap, UTF-8 and JSON-RPC 2.0 checks, and an
  error answer for every malformed line, so `exit`, `$/cancelRequest` and the answers to
  service requests are seen however busy the handlers are;
- the handshake (`initialize`: protocol version, principal class, App Group containers),
  `shutdown`, `exit`, `-32003` before `initialize`, `-32601` for methods the class does not
  list;
- every call on its own thread with a fresh instance of the principal class, answered once;
- cancellation: a cancelled call's pending service request stops waiting and the call is
  answered with `-32002` (a handler that finishes anyway sends its result: a late completion);
- service requests (`passLibrary.passes`, `watch.isPaired`, `ui.prompt`, `ui.biometric`)
  with their own ids, matched to the host's answers;
- writes each message whole with one locked write to fd 4; logs go to stderr only.
"""
import base64
import binascii
import json
import os
import sys
import threading

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 16 * 1024 * 1024
HOST_TO_EXTENSION_FD = 3
EXTENSION_TO_HOST_FD = 4

NON_UI_POINT = "com.apple.PassKit.issuer-provisioning"
UI_POINT = "com.apple.PassKit.issuer-provisioning.authorization"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
HANDLER_FAILED = -32000
PRINCIPAL_CLASS_NOT_FOUND = -32001
REQUEST_CANCELLED = -32002
NOT_INITIALIZED = -32003
UNSUPPORTED_PROTOCOL_VERSION = -32004
LINE_TOO_LONG = -32005

RUNTIME_NAME = "wallet_extension.py"
RUNTIME_VERSION = "1.0.0"


class RPCError(Exception):
    """An error answer: raise it from a handler to answer the call with this code and message."""

    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data

    def wire(self):
        error = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class Cancelled(RPCError):
    """Raised inside a handler (by service calls) once the host cancelled its call."""

    def __init__(self, request_id):
        super().__init__(REQUEST_CANCELLED, f"request {request_id} was cancelled")


class ServiceError(Exception):
    """A service request the host answered with an error, or with a result of the wrong shape."""


_log_name = "wallet_extension"


def log(message):
    """One line to stderr (the host's log of this extension), written whole."""
    try:
        _write_all(2, f"{_log_name}: {message}\n".encode("utf-8", "replace"))
    except OSError:
        pass  # no log to write to; the protocol goes on


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


# ---------------------------------------------------------------------------------------------
# Parameter checks: each failure is the -32602 answer the Swift SDK would give.

def invalid_params(detail):
    return RPCError(INVALID_PARAMS, f"invalid params: {detail}")


def require(params, key, kind, kind_name, optional=False):
    """params[key], checked to be of `kind` (a bool is not an integer)."""
    if key not in params or params[key] is None:
        if optional:
            return None
        raise invalid_params(f'missing key "{key}"')
    value = params[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise invalid_params(f"{key}: expected {kind_name}")
    return value


def require_string(params, key, optional=False):
    return require(params, key, str, "a string", optional)


def decode_base64(text, where):
    """Decodes standard base64 (RFC 4648, with padding); -32602 naming `where` otherwise."""
    if not isinstance(text, str):
        raise invalid_params(f"{where}: expected a base64 string")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise invalid_params(f"{where}: not valid base64") from None


def require_base64(params, key):
    return decode_base64(require_string(params, key), key)


# ---------------------------------------------------------------------------------------------
# The call a handler serves.

class Call:
    """One request from the host: its method, params and id, cancellation, and the host's
    services. A handler gets one per call and never shares it."""

    def __init__(self, runtime, request_id, method, params):
        self.runtime = runtime
        self.id = request_id
        self.method = method
        self.params = params
        self._cancelled = False
        self._condition = threading.Condition()
        self._answered = False

    # Cancellation ---------------------------------------------------------------------------

    @property
    def cancelled(self):
        return self._cancelled

    def check_cancelled(self):
        """Raises Cancelled when the host has cancelled this call."""
        if self._cancelled:
            raise Cancelled(self.id)

    def _cancel(self):
        with self._condition:
            self._cancelled = True
            self._condition.notify_all()

    # Host services --------------------------------------------------------------------------

    def service(self, method, params):
        """Sends a service request and waits for the host's answer; returns its result.
        Raises ServiceError when the host answers with an error, Cancelled when the call is
        cancelled while waiting."""
        return self.runtime._service(self, method, params)

    def passes(self):
        """`passLibrary.passes`: the secure-element passes on the iPhone and the watch, as a
        list of dicts. Like PassKit it never fails: a failed request logs and gives []."""
        try:
            passes = self.service("passLibrary.passes", {"passType": "secureElement"})
            if not isinstance(passes, list):
                raise ServiceError(f"passLibrary.passes answered {type(passes).__name__}, not an array")
            for item in passes:
                if not (isinstance(item, dict) and isinstance(item.get("primaryAccountIdentifier"), str)
                        and isinstance(item.get("deviceName"), str) and isinstance(item.get("isRemotePass"), bool)):
                    raise ServiceError(f"passLibrary.passes answered a pass of the wrong shape: {item!r:.200}")
            return passes
        except ServiceError as error:
            log(f"the pass library gives no passes: {error}")
            return []

    def watch_is_paired(self):
        """`watch.isPaired`; False (logged) when the host cannot answer."""
        try:
            paired = self.service("watch.isPaired", {})
            if not isinstance(paired, bool):
                raise ServiceError(f"watch.isPaired answered {paired!r:.100}, not a boolean")
            return paired
        except ServiceError as error:
            log(f"no paired watch assumed: {error}")
            return False

    def prompt(self, title, fields, actions, message=None):
        """`ui.prompt` (UI extensions): returns (action, values). Raises ServiceError."""
        params = {"title": title, "fields": fields, "actions": actions}
        if message is not None:
            params["message"] = message
        answer = self.service("ui.prompt", params)
        if not (isinstance(answer, dict) and isinstance(answer.get("action"), str)):
            raise ServiceError(f"ui.prompt answered {answer!r:.200}, not {{action, values}}")
        values = answer.get("values")
        if values is None:
            values = {}
        if not isinstance(values, dict) or not all(isinstance(value, str) for value in values.values()):
            raise ServiceError("ui.prompt answered values that are not strings")
        return answer["action"], values

    def biometric(self, reason):
        """`ui.biometric` (UI extensions): True when the user passed. Raises ServiceError."""
        answer = self.service("ui.biometric", {"reason": reason})
        if not (isinstance(answer, dict) and isinstance(answer.get("success"), bool)):
            raise ServiceError(f"ui.biometric answered {answer!r:.200}, not {{success}}")
        return answer["success"]

    # App Groups -----------------------------------------------------------------------------

    def app_group_container(self, group_id):
        """The container directory of an App Group, as the host gave it; None if not a member."""
        return self.runtime.app_group_container(group_id)


# ---------------------------------------------------------------------------------------------
# Framing

def _frames(fd):
    """Yields ("line", bytes), ("oversized", byte_count) and finally ("end", half_line_bytes)."""
    buffer = bytearray()
    start = 0          # where the current line begins in buffer
    scanned = 0        # bytes from start already searched for a newline
    dropping = 0       # > 0: inside an oversized line, this many bytes dropped so far
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError as error:
            log(f"reading fd {fd} failed: {error.strerror}")
            chunk = b""
        if not chunk:
            yield "end", (len(buffer) - start) + dropping
            return
        if dropping:
            newline = chunk.find(b"\n")
            if newline < 0:
                dropping += len(chunk)
                continue
            dropping = 0
            chunk = chunk[newline + 1:]
        buffer += chunk
        while True:
            newline = buffer.find(b"\n", start + scanned)
            if newline < 0:
                scanned = len(buffer) - start
                if scanned > MAX_LINE_BYTES:
                    yield "oversized", scanned
                    dropping = scanned
                    del buffer[:]
                    start = scanned = 0
                break
            length = newline - start
            if length > MAX_LINE_BYTES:
                yield "oversized", length
            else:
                yield "line", bytes(buffer[start:newline])
            start, scanned = newline + 1, 0
        if start:
            del buffer[:start]
            start = 0


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def _is_id(value):
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


# ---------------------------------------------------------------------------------------------
# The runtime

class _Runtime:
    def __init__(self, name, point, principal_classes):
        self.name = name
        self.point = point
        self.principal_classes = principal_classes
        self.principal = None          # the class, once initialized
        self.principal_name = None
        self.shutting_down = False
        self.app_groups = {}
        self._lock = threading.Lock()  # guards the tables below
        self._write_lock = threading.Lock()
        self._calls = {}               # host request id -> Call in flight
        self._pending = {}             # our service request id -> [call, done, result, error]
        self._abandoned = set()        # service ids whose call was cancelled while waiting
        self._next_service_id = 0

    # Output ---------------------------------------------------------------------------------

    def send(self, message):
        message = {"jsonrpc": "2.0", **message}
        try:
            line = json.dumps(message, separators=(",", ":"), sort_keys=True, allow_nan=False).encode("ascii")
        except (TypeError, ValueError) as error:
            log(f"cannot encode an answer ({error}); sending an internal error instead")
            line = json.dumps({"jsonrpc": "2.0", "id": message.get("id"),
                               "error": {"code": INTERNAL_ERROR, "message": f"result could not be encoded: {error}"}},
                              separators=(",", ":"), sort_keys=True).encode("ascii")
        try:
            with self._write_lock:
                _write_all(EXTENSION_TO_HOST_FD, line + b"\n")
        except OSError as error:
            # EPIPE: the host has gone. Nobody is left to answer.
            log(f"writing to the host failed ({error.strerror}); exiting")
            _exit(0)

    def answer(self, request_id, result=None, error=None):
        if error is not None:
            self.send({"id": request_id, "error": error.wire()})
        else:
            self.send({"id": request_id, "result": result})

    # Input ----------------------------------------------------------------------------------

    def read_forever(self):
        for kind, value in _frames(HOST_TO_EXTENSION_FD):
            if kind == "line":
                try:
                    self.receive(value)
                except Exception as failure:  # never let one line stop the reader
                    log(f"internal error on a line from the host: {failure!r}")
            elif kind == "oversized":
                message = f"a line from the host exceeded {MAX_LINE_BYTES} bytes ({value} seen); dropped"
                log(message)
                self.answer(None, error=RPCError(LINE_TOO_LONG, message))
            else:
                if value:
                    log(f"fd {HOST_TO_EXTENSION_FD} ended inside a line; {value} bytes dropped")
                _exit(0)

    def receive(self, raw):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return self._malformed(None, PARSE_ERROR, "not valid UTF-8")
        if not text.strip():
            return self._malformed(None, PARSE_ERROR, "not valid JSON: an empty line is not a message")
        try:
            message = json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError) as error:
            return self._malformed(None, PARSE_ERROR, f"not valid JSON: {error}")
        if not isinstance(message, dict):
            return self._malformed(None, INVALID_REQUEST, "a message must be a JSON object")
        request_id = message.get("id")
        if request_id is not None and not _is_id(request_id):
            return self._malformed(None, INVALID_REQUEST, '"id" has the wrong type')
        if message.get("jsonrpc") != "2.0":
            return self._malformed(request_id, INVALID_REQUEST, '"jsonrpc" must be "2.0"')
        method = message.get("method")
        if method is not None and not isinstance(method, str):
            return self._malformed(request_id, INVALID_REQUEST, '"method" has the wrong type')
        params = message.get("params")
        if method is not None:
            if params is None:
                params = {}
            if request_id is None:
                return self.notification(method, params)
            if not isinstance(params, dict):
                return self.answer(request_id, error=invalid_params("params must be an object"))
            return self.request(request_id, method, params)
        if "error" in message:
            error = message["error"]
            if not (isinstance(error, dict) and isinstance(error.get("code"), int)
                    and isinstance(error.get("message"), str)):
                return self._malformed(request_id, INVALID_REQUEST, '"error" has the wrong type')
            if request_id is None:
                return log(f"the host could not read one of our lines: {error.get('code')} {error.get('message')}")
            return self.resolve(request_id, None, error)
        if request_id is None:
            return self._malformed(None, INVALID_REQUEST, 'message has neither "method" nor "id"')
        if "result" not in message:
            return self._malformed(request_id, INVALID_REQUEST, f'response {request_id} has neither "result" nor "error"')
        return self.resolve(request_id, message["result"], None)

    def _malformed(self, request_id, code, reason):
        log(f"unreadable line from the host: {reason}")
        self.answer(request_id, error=RPCError(code, reason))

    # Notifications --------------------------------------------------------------------------

    def notification(self, method, params):
        if method == "exit":
            _exit(0)
        elif method == "$/cancelRequest":
            target = params.get("id") if isinstance(params, dict) else None
            if not _is_id(target):
                return log("$/cancelRequest without a readable id; ignored")
            with self._lock:
                call = self._calls.get(target)
            if call is not None:
                call._cancel()
        # Other notifications are ignored, as the protocol says.

    # Requests -------------------------------------------------------------------------------

    def request(self, request_id, method, params):
        if method == "initialize":
            return self.initialize(request_id, params)
        if self.principal is None:
            return self.answer(request_id, error=RPCError(NOT_INITIALIZED, f"{method} arrived before initialize"))
        if self.shutting_down:
            return self.answer(request_id, error=RPCError(
                INVALID_REQUEST, f"{method} arrived after shutdown; no new calls are taken"))
        if method == "shutdown":
            self.shutting_down = True
            return self.answer(request_id, None)
        if method not in self.principal.METHODS:
            return self.answer(request_id, error=RPCError(
                METHOD_NOT_FOUND, f"{method} is not implemented by {self.principal_name}"))
        call = Call(self, request_id, method, params)
        with self._lock:
            if request_id in self._calls:
                call = None
            else:
                self._calls[request_id] = call
        if call is None:
            return self.answer(request_id, error=RPCError(INVALID_REQUEST, f"request id {request_id!r} is already in flight"))
        try:
            threading.Thread(target=self.serve, args=(call,), name=f"call-{method}", daemon=True).start()
        except RuntimeError as error:
            self.finish(call, error=RPCError(INTERNAL_ERROR, f"could not start a thread for {method}: {error}"))

    def serve(self, call):
        """Runs one call on a fresh instance of the principal class and answers it once."""
        try:
            handler = self.principal()
            result = getattr(handler, call.method)(call)
        except RPCError as error:
            return self.finish(call, error=error)
        except Exception as failure:
            log(f"{call.method} failed: {failure!r}")
            return self.finish(call, error=RPCError(HANDLER_FAILED, f"{call.method} failed: {failure}"))
        self.finish(call, result=result)

    def finish(self, call, result=None, error=None):
        with self._lock:
            if call._answered:
                return log(f"{call.method} ({call.id!r}) completed twice; the second completion is dropped")
            call._answered = True
            self._calls.pop(call.id, None)
        self.answer(call.id, result, error)

    def initialize(self, request_id, params):
        try:
            version = require(params, "protocolVersion", int, "an integer")
            point = require_string(params, "extensionPoint")
            principal_name = require_string(params, "principalClass")
            require_string(params, "bundleIdentifier")
            require_string(params, "containingAppBundleIdentifier")
            groups = require(params, "appGroups", dict, "an object")
            require(params, "memoryLimitBytes", int, "an integer")
            require(params, "deadlines", dict, "an object")
            if not all(isinstance(path, str) for path in groups.values()):
                raise invalid_params("appGroups: expected strings")
        except RPCError as error:
            return self.answer(request_id, error=error)
        if self.principal is not None:
            return self.answer(request_id, error=RPCError(INVALID_REQUEST, "initialize was already received"))
        if version != PROTOCOL_VERSION:
            return self.answer(request_id, error=RPCError(
                UNSUPPORTED_PROTOCOL_VERSION, f"unsupported protocol version {version}",
                {"supported": [PROTOCOL_VERSION]}))
        principal = self.principal_classes.get(principal_name)
        if principal is None:
            known = ", ".join(sorted(self.principal_classes))
            message = f"principal class {principal_name} not found in {self.name} (it has {known})"
            log(message)
            return self.answer(request_id, error=RPCError(PRINCIPAL_CLASS_NOT_FOUND, message))
        if point != self.point:
            message = f"{principal_name} serves {self.point}, not {point}"
            log(message)
            return self.answer(request_id, error=RPCError(HANDLER_FAILED, message))
        self.app_groups = dict(groups)
        self.principal, self.principal_name = principal, principal_name
        self.answer(request_id, {"protocolVersion": PROTOCOL_VERSION, "methods": list(principal.METHODS),
                                 "runtime": {"name": RUNTIME_NAME, "version": RUNTIME_VERSION}})

    def app_group_container(self, group_id):
        path = self.app_groups.get(group_id)
        if path is None:
            path = app_groups_from_environment().get(group_id)
        return path

    # Service requests -----------------------------------------------------------------------

    def _service(self, call, method, params):
        call.check_cancelled()
        with self._lock:
            self._next_service_id += 1
            service_id = f"py-{self._next_service_id}"
            slot = [call, False, None, None]
            self._pending[service_id] = slot
        self.send({"id": service_id, "method": method, "params": params})
        with call._condition:
            while not slot[1] and not call._cancelled:
                call._condition.wait()
        with self._lock:
            if not slot[1]:
                self._pending.pop(service_id, None)
                self._abandoned.add(service_id)
        if not slot[1]:
            raise Cancelled(call.id)
        if slot[3] is not None:
            raise ServiceError(f"{method} failed: {slot[3].get('code')} {slot[3].get('message')}")
        return slot[2]

    def resolve(self, service_id, result, error):
        with self._lock:
            slot = self._pending.pop(service_id, None)
            abandoned = service_id in self._abandoned
            self._abandoned.discard(service_id)
        if slot is None:
            if not abandoned:
                log(f"answer to {service_id!r}, which is not a pending service request; ignored")
            return
        call = slot[0]
        with call._condition:
            slot[1], slot[2], slot[3] = True, result, error
            call._condition.notify_all()


def _exit(status):
    """Ends the process now, whatever the handler threads are doing."""
    os._exit(status)


def app_groups_from_environment():
    """WALLET_EXTENSION_APP_GROUPS: App Group id -> container path ({} when absent or unreadable)."""
    text = os.environ.get("WALLET_EXTENSION_APP_GROUPS", "")
    if not text:
        return {}
    try:
        groups = json.loads(text)
    except ValueError:
        log("WALLET_EXTENSION_APP_GROUPS is not valid JSON; no App Groups")
        return {}
    if not isinstance(groups, dict):
        return {}
    return {key: value for key, value in groups.items() if isinstance(value, str)}


def _fd_is_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


def run(name, point, principal_classes):
    """Runs the extension until the host sends `exit` or closes fd 3. Never returns."""
    global _log_name
    _log_name = name
    if "WALLET_EXTENSION_PROTOCOL" not in os.environ:
        sys.stderr.write(f"{name} is an Apple Wallet issuer-provisioning extension; it is run by wallet-host, "
                         "not directly. Try: wallet-host call <path to .appex> status\n")
        sys.exit(2)
    if not (_fd_is_open(HOST_TO_EXTENSION_FD) and _fd_is_open(EXTENSION_TO_HOST_FD)):
        sys.stderr.write("WALLET_EXTENSION_PROTOCOL is set but fd 3 and fd 4 are not open; "
                         "wallet-host passes its protocol pipes there.\n")
        sys.exit(2)
    runtime = _Runtime(name, point, principal_classes)
    runtime.read_forever()
    _exit(0)
