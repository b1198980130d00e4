"""One total deadline for the network work of a capture, shared by every request it makes.

httpx and httpcore time each socket operation on its own: a read timeout starts again with
every byte, so a server that sends one byte a second is never "too slow" for them, and a
name lookup is not timed at all. A :class:`Deadline` is a fixed point in time instead. It is
made once, when the work starts, and handed down to everything that waits on the network:
the name lookup (:meth:`Deadline.call`), the connection, the TLS handshake and every read
and write (:mod:`readreceipt.fetching.netguard` sets each socket operation's timeout to the
time left and checks the clock between reads), every redirect hop, robots.txt, the browser's
proxy and any further request a later stage makes (a probe): each asks the same deadline
how much time is left and gives up when none is.

Use::

    deadline = Deadline.after(30.0)          # the capture's --timeout
    robots_part = deadline.within(10.0)      # at most 10 s of it, never beyond it
    timeout = deadline.timeout(cap=5.0)      # for one socket operation; FetchTimeout if spent
    deadline.check()                         # FetchTimeout if spent, else seconds left
    addresses = deadline.call(resolve, host, port, what="resolving host")

Time spent waiting on purpose (the host's turn under ``--wait``) is not network time: the
caller moves the deadline back by it (:meth:`Deadline.later_by`).

Invariants: a Deadline never moves by itself and is immutable (every derived deadline is a
new object, never later than the one it came from, except through ``later_by``); when it has
passed, every method that waits raises :class:`~readreceipt.errors.FetchTimeout` with reason
``timeout`` instead of starting to wait.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from readreceipt.errors import FetchTimeout

T = TypeVar("T")


@dataclass(frozen=True)
class Deadline:
    """A point on the monotonic clock by which the work must be done."""

    #: The budget it was made with, in seconds (for messages: "within 10 s").
    seconds: float
    #: ``time.monotonic()`` at which it passes.
    ends_at: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """The deadline ``seconds`` from now."""
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"a deadline takes a finite number of seconds >= 0, not "
                             f"{seconds!r}")
        return cls(seconds, time.monotonic() + seconds)

    def remaining(self) -> float:
        """Seconds left (0.0 once passed)."""
        return max(0.0, self.ends_at - time.monotonic())

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self.ends_at

    def error(self, url: str | None = None) -> FetchTimeout:
        """The exception for this deadline having passed."""
        return FetchTimeout(f"no complete answer within {self.seconds:g} s", url=url,
                            reason="timeout")

    def check(self) -> float:
        """Seconds left; :class:`FetchTimeout` when none are."""
        left = self.ends_at - time.monotonic()
        if left <= 0:
            raise self.error()
        return left

    def timeout(self, cap: float | None = None) -> float:
        """The timeout for one blocking operation: the time left, or ``cap`` if sooner."""
        left = self.check()
        return left if cap is None else min(cap, left)

    def within(self, seconds: float) -> Deadline:
        """At most ``seconds`` from now, and never later than this deadline."""
        ends_at = min(self.ends_at, time.monotonic() + seconds)
        return Deadline(min(self.seconds, seconds), ends_at)

    def later_by(self, seconds: float) -> Deadline:
        """This deadline moved back by ``seconds`` spent on purpose away from the network."""
        return Deadline(self.seconds, self.ends_at + max(0.0, seconds))

    def call(self, func: Callable[..., T], *args: object, what: str = "waiting") -> T:
        """``func(*args)`` in a thread of its own, waited for until the deadline.

        For calls that cannot be cancelled or timed (``getaddrinfo``): when the deadline
        passes first, :class:`FetchTimeout` is raised and the thread is left to finish on its
        own (a daemon thread; its result is dropped).
        """
        self.check()
        outcome: list[T] = []
        failure: list[BaseException] = []
        done = threading.Event()

        def run() -> None:
            try:
                outcome.append(func(*args))
            except BaseException as exc:  # handed to the waiting thread, raised there
                failure.append(exc)
            finally:
                done.set()

        threading.Thread(target=run, name=f"readreceipt-{what}", daemon=True).start()
        if not done.wait(self.remaining()):
            raise FetchTimeout(f"no complete answer within {self.seconds:g} s ({what} took "
                               "too long)", reason="timeout")
        if failure:
            raise failure[0]
        return outcome[0]
