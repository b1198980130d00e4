"""Which IP addresses readreceipt will never connect to.

This is the address half of the security boundary (the URL half is :mod:`urlpolicy`).
:func:`blocked_reason` is consulted for every address a name resolves to and for the
address actually connected to, on every request the project makes.

Invariant: a non-global address is blocked unless its exact ``host:port`` pair is listed in
``READRECEIPT_ALLOW_HOSTS``; the exemption is reported so the record can say it was used.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

ALLOW_HOSTS_ENV = "READRECEIPT_ALLOW_HOSTS"


def blocked_reason(address: IPAddress | str) -> str | None:
    """The reason code this address may not be contacted, or None when it may."""
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return blocked_reason(ip.ipv4_mapped)
    if ip.is_loopback:
        return "loopback_address"
    if ip.is_unspecified:
        return "unspecified_address"
    if ip.is_link_local:
        return "link_local_address"
    if ip.is_multicast:
        return "multicast_address"
    if ip.is_private:
        return "private_address"
    if ip.is_reserved:
        return "reserved_address"
    if not ip.is_global:
        return "special_purpose_address"
    return None


@dataclass(frozen=True)
class AllowHosts:
    """``host:port`` pairs exempt from the address rule (tests and the demo only)."""

    pairs: frozenset[str] = frozenset()

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> AllowHosts:
        env = os.environ if environ is None else environ
        raw = env.get(ALLOW_HOSTS_ENV, "")
        return cls(frozenset(p.strip().lower() for p in raw.split(",") if p.strip()))

    def exempts(self, host: str, port: int) -> bool:
        host = host.lower().strip("[]")
        return f"{host}:{port}" in self.pairs or f"[{host}]:{port}" in self.pairs

    def __bool__(self) -> bool:
        return bool(self.pairs)
