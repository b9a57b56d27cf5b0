"""Chromium driven over its DevTools pipe and nothing else: no Playwright in the browser or page.

Playwright enables several DevTools domains in every tab and injects its own scripts into pages;
a phone runs none of that. A benchmark that times a page's first moments can drive the browser
through this instead and compare. The browser gets the same flags Playwright 1.65 gives it (read
from a Playwright launch), so only the driver differs.

    with BareChromium() as chromium:
        context = chromium.new_context()
        tab = chromium.new_tab(context, PHONE)
        tab.navigate(url)
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from page_weight import CHROMIUM_ARGS, CHROMIUM_PATH

# What Tab.start_trace records: enough to see each main-thread task and what it spent its time on.
TRACED = [
    "toplevel",
    "blink",
    "blink.user_timing",
    "loading",
    "input",
    "v8.execute",
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
]

PLAYWRIGHTS_FLAGS = [
    "--disable-field-trial-config",
    "--disable-background-networking",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-back-forward-cache",
    "--disable-breakpad",
    "--disable-component-extensions-with-background-pages",
    "--disable-component-update",
    "--no-default-browser-check",
    "--disable-default-apps",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,"
    "HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,"
    "ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,OptimizationHints,"
    "NetworkTimeServiceQuerying",
    "--allow-pre-commit-input",
    "--disable-hang-monitor",
    "--disable-ipc-flooding-protection",
    "--disable-popup-blocking",
    "--disable-prompt-on-repost",
    "--disable-renderer-backgrounding",
    "--force-color-profile=srgb",
    "--metrics-recording-only",
    "--no-first-run",
    "--password-store=basic",
    "--use-mock-keychain",
    "--no-service-autorun",
    "--disable-search-engine-choice-screen",
    "--headless",
    "--hide-scrollbars",
    "--mute-audio",
    "--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,"
    "availablePointerTypes=4",
]
# Where Chromium reads commands from and writes answers to, with --remote-debugging-pipe.
COMMANDS_FD, ANSWERS_FD = 3, 4


class BareChromium:
    """One browser; DevTools messages are JSON, each ended by a NUL byte."""

    def __init__(self) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="bare-chromium-")
        commands_in, self._commands = os.pipe()
        self._answers, answers_out = os.pipe()

        def wire_the_pipe() -> None:
            # In the child, before exec: only dup2 and fcntl, which are safe after a fork.
            os.dup2(commands_in, COMMANDS_FD)
            os.dup2(answers_out, ANSWERS_FD)
            # dup2 onto itself (a pipe end already numbered 3 or 4) keeps close-on-exec.
            os.set_inheritable(COMMANDS_FD, True)
            os.set_inheritable(ANSWERS_FD, True)

        try:
            self._process = subprocess.Popen(
                [
                    CHROMIUM_PATH,
                    *PLAYWRIGHTS_FLAGS,
                    *CHROMIUM_ARGS,
                    f"--user-data-dir={self._profile.name}",
                    "--remote-debugging-pipe",
                    "--no-startup-window",
                ],
                preexec_fn=wire_the_pipe,
                # The pipe's ends are moved to fds 3 and 4 in the child; closing the others
                # would close them there.
                close_fds=False,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except BaseException:
            for fd in (commands_in, self._commands, self._answers, answers_out):
                os.close(fd)
            self._profile.cleanup()
            raise
        os.close(commands_in)
        os.close(answers_out)
        self._unread = b""
        self._last_id = 0
        # Commands posted without waiting (`post`), and the answers that have come to them.
        self._awaited: set[int] = set()
        self._answered: dict[int, dict] = {}

    def __enter__(self) -> BareChromium:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        """Sends one command and waits for its answer; events on the way are dropped."""
        command_id = self.post(method, params, session)
        while (answer := self._answered.pop(command_id, None)) is None:
            self._keep(self._read())
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def post(
        self,
        method: str,
        params: dict | None = None,
        session: str | None = None,
        keep: bool = True,
    ) -> int:
        """Sends one command without waiting; its answer is kept for `answer` unless `keep` is
        false. Gives the command's id."""
        self._last_id += 1
        message: dict[str, Any] = {"id": self._last_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        if keep:
            self._awaited.add(self._last_id)
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        return self._last_id

    def answer(self, command_id: int) -> dict | None:
        """The answer to a posted command (its "result" or "error") if it has come, without
        waiting for it."""
        while select.select([self._answers], [], [], 0)[0]:
            chunk = os.read(self._answers, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed its DevTools pipe")
            self._unread += chunk
        while b"\0" in self._unread:
            message, self._unread = self._unread.split(b"\0", 1)
            self._keep(json.loads(message))
        return self._answered.pop(command_id, None)

    def _keep(self, message: dict) -> None:
        if message.get("id") in self._awaited:
            self._awaited.discard(message["id"])
            self._answered[message["id"]] = message

    def _read(self) -> dict:
        while b"\0" not in self._unread:
            chunk = os.read(self._answers, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed its DevTools pipe")
            self._unread += chunk
        message, self._unread = self._unread.split(b"\0", 1)
        return json.loads(message)

    def wait_event(self, method: str, session: str | None = None) -> dict:
        """Waits for the next event `method` (of the tab `session`, if given) and gives its
        params; answers on the way are kept, other events dropped."""
        while True:
            message = self._read()
            if message.get("method") == method and session in (None, message.get("sessionId")):
                return message.get("params", {})
            self._keep(message)

    def new_context(self) -> str:
        """A fresh profile within the browser, as a new phone."""
        return self.send("Target.createBrowserContext")["browserContextId"]

    def close_context(self, context: str) -> None:
        self.send("Target.disposeBrowserContext", {"browserContextId": context})

    def new_tab(self, context: str, phone: dict) -> Tab:
        """A blank tab with the phone's screen and touch, and no DevTools domain enabled."""
        target = self.send(
            "Target.createTarget", {"url": "about:blank", "browserContextId": context}
        )
        target_id = target["targetId"]
        attached = self.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})
        tab = Tab(self, target_id, attached["sessionId"])
        viewport = phone["viewport"]
        metrics = {
            "width": viewport["width"],
            "height": viewport["height"],
            "deviceScaleFactor": phone["device_scale_factor"],
            "mobile": phone["is_mobile"],
        }
        tab.send("Emulation.setDeviceMetricsOverride", metrics)
        tab.send("Emulation.setTouchEmulationEnabled", {"enabled": phone["has_touch"]})
        return tab

    def close(self) -> None:
        with contextlib.suppress(EOFError, OSError, RuntimeError):
            self.send("Browser.close")
        try:
            self._process.wait(10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._commands)
        os.close(self._answers)
        self._profile.cleanup()


class Tab:
    def __init__(self, chromium: BareChromium, target: str, session: str) -> None:
        self._chromium = chromium
        self.target = target
        self.session = session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self._chromium.send(method, params, self.session)

    def post(self, method: str, params: dict | None = None, keep: bool = True) -> int:
        return self._chromium.post(method, params, self.session, keep)

    def answer(self, command_id: int) -> dict | None:
        return self._chromium.answer(command_id)

    def navigate(self, url: str) -> None:
        self.send("Page.navigate", {"url": url})

    def evaluate(self, expression: str, await_promise: bool = False) -> Any:
        """The expression's value, sent back as JSON."""
        answer = self.send(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": await_promise, "returnByValue": True},
        )
        if "exceptionDetails" in answer:
            raise RuntimeError(answer["exceptionDetails"].get("text", "the page threw"))
        return answer["result"].get("value")

    def wait_for(self, expression: str, timeout_s: float = 30) -> None:
        """Until the expression is true in the page, asked every 0.1 s.

        An error while the tab is between documents is expected; the last one is reported if
        the expression never comes true."""
        deadline = time.monotonic() + timeout_s
        last_error: RuntimeError | None = None
        while time.monotonic() < deadline:
            try:
                if self.evaluate(expression):
                    return
            except RuntimeError as error:
                last_error = error
            time.sleep(0.1)
        raise TimeoutError(f"{expression} (last error: {last_error})")

    def start_trace(self) -> None:
        """Records a Chromium trace of this tab's renderer: the main thread's tasks, the parser,
        style, layout, paint, input and scripts, as DevTools' Performance panel does."""
        self.send(
            "Tracing.start",
            {"transferMode": "ReturnAsStream", "traceConfig": {"includedCategories": TRACED}},
        )

    def end_trace(self, path: Path) -> None:
        """Ends the trace started by start_trace and writes it to `path` (JSON, for Perfetto,
        DevTools or trace_tasks.py)."""
        self.post("Tracing.end", keep=False)
        stream = self._chromium.wait_event("Tracing.tracingComplete", self.session)["stream"]
        with path.open("w") as out:
            while True:
                chunk = self.send("IO.read", {"handle": stream})
                out.write(chunk["data"])
                if chunk.get("eof"):
                    break
        self.send("IO.close", {"handle": stream})

    def close(self) -> None:
        self._chromium.send("Target.closeTarget", {"targetId": self.target})
