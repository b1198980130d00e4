"""Benchmark: what the URL policy and the address guard cost per request.

Same local server, same run, rounds interleaved so drift hits every variant alike:

- ``plain``: an httpx.Client with its stock transport (no guard), one client per request,
  as fetch() makes one per capture;
- ``guarded``: the same client on readreceipt's GuardedTransport (resolve, check every
  answer, connect to the checked address, check the peer), a fresh AddressGuard each time;
- ``policy+guarded``: the above plus check_url (WHATWG parse, parser agreement, credential
  scan, host-name rules);
- ``fetch()``: readreceipt's whole transport (adds redirects by hand, streamed decoding,
  deadline), for reference.

And the pure checks alone (check_url, blocked_reason), in microseconds. Figures, not
assertions.

    .venv/bin/python bench/guard.py [N]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import httpx

from readreceipt.fetching.addresses import AllowHosts, blocked_reason
from readreceipt.fetching.netguard import AddressGuard, GuardedTransport, _default_ssl_context
from readreceipt.fetching.transport import USER_AGENT, FetchOptions, fetch
from readreceipt.fetching.urlpolicy import check_url
from readreceipt.localserver import LocalServer, Route

BODY = (b"<html><head><title>bench</title></head><body>"
        + b"<p>Plain words for a benchmark page.</p>" * 50 + b"</body></html>")


def main(n: int) -> None:
    httpd = LocalServer({"/page": Route(200, BODY)})
    port = httpd.port
    url = f"http://127.0.0.1:{port}/page?id=42"
    allow = AllowHosts(frozenset({f"127.0.0.1:{port}"}))
    headers = {"user-agent": USER_AGENT}

    # The same verifying SSL context for every variant: loading the CA bundle (~20 ms) is
    # not the guard's cost, and readreceipt builds it once per process.
    context = _default_ssl_context()

    def plain() -> None:
        with httpx.Client(trust_env=False, headers=headers, verify=context) as client:
            assert client.get(url).status_code == 200

    def guarded() -> None:
        with httpx.Client(transport=GuardedTransport(AddressGuard(allow=allow)),
                          trust_env=False, headers=headers) as client:
            assert client.get(url).status_code == 200

    def policy_guarded() -> None:
        target = check_url(url)
        with httpx.Client(transport=GuardedTransport(AddressGuard(allow=allow)),
                          trust_env=False, headers=headers) as client:
            assert client.get(target.url).status_code == 200

    def full_fetch() -> None:
        assert fetch(check_url(url), AddressGuard(allow=allow), FetchOptions()).status == 200

    variants: dict[str, Callable[[], None]] = {
        "plain": plain, "guarded": guarded, "policy+guarded": policy_guarded,
        "fetch()": full_fetch,
    }
    for fn in variants.values():  # warm: imports, the shared SSL context, the server
        for _ in range(20):
            fn()
    samples: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(n):
        for name, fn in variants.items():
            t0 = time.perf_counter()
            fn()
            samples[name].append(time.perf_counter() - t0)
    httpd.close()

    base = statistics.median(samples["plain"])
    print(f"{n} requests per variant to one local server (127.0.0.1), interleaved rounds")
    print(f"{'variant':16s} {'median ms':>10s} {'mean ms':>9s} {'p90 ms':>8s} "
          f"{'vs plain':>9s} {'guard cost':>11s}")
    for name, values in samples.items():
        med = statistics.median(values)
        p90 = statistics.quantiles(values, n=10)[-1]
        print(f"{name:16s} {1000 * med:10.3f} {1000 * statistics.fmean(values):9.3f} "
              f"{1000 * p90:8.3f} {med / base:8.2f}x {1000 * (med - base):+10.3f} ms")

    def per_call(fn: Callable[[], object], reps: int = 20000) -> float:
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        return (time.perf_counter() - t0) / reps * 1e6

    long_query = "https://example.com/search?" + "&".join(f"p{i}=v{i}" for i in range(40))
    print("pure checks, microseconds a call:")
    checks: list[tuple[str, Callable[[], object]]] = [
        ("check_url (short URL)", lambda: check_url(url)),
        ("check_url (40 query parameters)", lambda: check_url(long_query)),
        ("blocked_reason(93.184.216.34)", lambda: blocked_reason("93.184.216.34")),
        ("blocked_reason(2606:4700::1111)", lambda: blocked_reason("2606:4700::1111")),
        ("blocked_reason(::ffff:127.0.0.1)", lambda: blocked_reason("::ffff:127.0.0.1")),
    ]
    for label, check in checks:
        print(f"  {label:34s} {per_call(check):8.2f}")

if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
