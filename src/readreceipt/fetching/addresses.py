"""Which IP addresses readreceipt will never connect to.

This is the address half of the security boundary (the URL half is :mod:`urlpolicy`).
:func:`blocked_reason` is consulted for every address a name resolves to and for the
address actually connected to, on every request the project makes.

The rule is written out as explicit tables, not left to :mod:`ipaddress`'s ``is_private``:
on Python 3.11 ``100.64.0.0/10`` is neither private nor global, ``::ffff:127.0.0.1`` is not
loopback, and 6to4 ``2002:7f00:1::``, NAT64 ``64:ff9b::a9fe:a9fe``, ``::127.0.0.1`` and
``192.0.0.192`` all report ``is_global=True``. The tables follow IANA's IPv4 and IPv6
Special-Purpose Address Registries (every entry is blocked, even the few IANA marks globally
reachable: they are anycast infrastructure, never a page), plus ``not is_global`` as a net
for whatever a later registry adds, plus the rule that an IPv4 address embedded in IPv6
(mapped, compatible, NAT64, 6to4, Teredo) is judged by the embedded address.

Invariants:
- an address is allowed only when no table entry covers it, it is global, and any IPv4
  address embedded in it is allowed;
- cloud metadata addresses are blocked with their own reason and no exemption applies;
- a non-global address is otherwise blocked unless its ``host:port`` pair, or its host alone
  (every port), is listed in ``READRECEIPT_ALLOW_HOSTS``; the exemption is reported so the
  record can say it was used; an entry that can never match is warned of.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

log = logging.getLogger(__name__)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

ALLOW_HOSTS_ENV = "READRECEIPT_ALLOW_HOSTS"

METADATA_REASON = "metadata_address"

#: Instance-metadata and platform endpoints that hand out credentials: AWS/GCP/Azure/
#: DigitalOcean IMDS (169.254.169.254 and AWS's IPv6 fd00:ec2::254), AWS ECS task role
#: (169.254.170.2), EKS Pod Identity (169.254.170.23, fd00:ec2::23), Alibaba Cloud
#: (100.100.100.200), Oracle Cloud (192.0.0.192) and Azure's WireServer (168.63.129.16, a
#: *public* address, hence named here explicitly).
METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "169.254.170.23", "100.100.100.200",
    "192.0.0.192", "168.63.129.16", "fd00:ec2::254", "fd00:ec2::23",
))

_V4 = ipaddress.IPv4Network
_V6 = ipaddress.IPv6Network

#: IANA IPv4 Special-Purpose Address Registry (RFC 6890 and its updates), plus multicast
#: and the former class E space.
BLOCKED_IPV4: tuple[tuple[ipaddress.IPv4Network, str], ...] = (
    (_V4("0.0.0.0/8"), "this_network_address"),  # RFC 791; Linux connects 0.0.0.0 to itself
    (_V4("10.0.0.0/8"), "private_address"),  # RFC 1918
    (_V4("100.64.0.0/10"), "shared_address"),  # RFC 6598, carrier-grade NAT
    (_V4("127.0.0.0/8"), "loopback_address"),  # RFC 1122
    (_V4("169.254.0.0/16"), "link_local_address"),  # RFC 3927
    (_V4("172.16.0.0/12"), "private_address"),  # RFC 1918
    (_V4("192.0.0.0/24"), "protocol_assignment_address"),  # RFC 6890 (incl. 192.0.0.192)
    (_V4("192.0.2.0/24"), "documentation_address"),  # RFC 5737 TEST-NET-1
    (_V4("192.31.196.0/24"), "as112_address"),  # RFC 7535
    (_V4("192.52.193.0/24"), "amt_address"),  # RFC 7450
    (_V4("192.88.99.0/24"), "relay_anycast_address"),  # RFC 7526, deprecated 6to4 relays
    (_V4("192.168.0.0/16"), "private_address"),  # RFC 1918
    (_V4("192.175.48.0/24"), "as112_address"),  # RFC 7534
    (_V4("198.18.0.0/15"), "benchmarking_address"),  # RFC 2544
    (_V4("198.51.100.0/24"), "documentation_address"),  # RFC 5737 TEST-NET-2
    (_V4("203.0.113.0/24"), "documentation_address"),  # RFC 5737 TEST-NET-3
    (_V4("224.0.0.0/4"), "multicast_address"),  # RFC 5771
    (_V4("240.0.0.0/4"), "reserved_address"),  # RFC 1112, incl. 255.255.255.255
)

#: IANA IPv6 Special-Purpose Address Registry (RFC 6890 and its updates), plus multicast,
#: site-local and everything outside global unicast 2000::/3 (checked in code).
BLOCKED_IPV6: tuple[tuple[ipaddress.IPv6Network, str], ...] = (
    (_V6("::/128"), "unspecified_address"),  # RFC 4291; Linux connects :: to itself
    (_V6("::1/128"), "loopback_address"),  # RFC 4291
    (_V6("64:ff9b:1::/48"), "nat64_local_use_address"),  # RFC 8215, operator-local NAT64
    (_V6("100::/64"), "discard_address"),  # RFC 6666
    (_V6("2001::/23"), "protocol_assignment_address"),  # RFC 2928 (Teredo judged apart)
    (_V6("2001:db8::/32"), "documentation_address"),  # RFC 3849
    (_V6("2620:4f:8000::/48"), "as112_address"),  # RFC 7534
    (_V6("3fff::/20"), "documentation_address"),  # RFC 9637
    (_V6("5f00::/16"), "srv6_sid_address"),  # RFC 9602
    (_V6("fc00::/7"), "private_address"),  # RFC 4193 unique local (incl. fd00:ec2::/32)
    (_V6("fe80::/10"), "link_local_address"),  # RFC 4291
    (_V6("fec0::/10"), "site_local_address"),  # RFC 3879, deprecated
    (_V6("ff00::/8"), "multicast_address"),  # RFC 4291
)

_GLOBAL_UNICAST = _V6("2000::/3")
_MAPPED = _V6("::ffff:0:0/96")  # RFC 4291 IPv4-mapped
_COMPATIBLE = _V6("::/96")  # RFC 4291 IPv4-compatible, deprecated
_NAT64 = _V6("64:ff9b::/96")  # RFC 6052 well-known prefix
_SIX_TO_FOUR = _V6("2002::/16")  # RFC 3056
_TEREDO = _V6("2001::/32")  # RFC 4380


def embedded_ipv4(ip: ipaddress.IPv6Address) -> tuple[str, tuple[ipaddress.IPv4Address, ...]]:
    """The IPv4 addresses carried inside ``ip`` and the mechanism's name; ``("", ())`` if none.

    Teredo carries two (its server and the client, whose bits are inverted on the wire).
    """
    if ip in _MAPPED:
        return "IPv4-mapped", (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF),)
    if ip in _NAT64:
        return "NAT64", (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF),)
    if ip in _COMPATIBLE and int(ip) > 1:
        return "IPv4-compatible", (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF),)
    if ip in _SIX_TO_FOUR:
        return "6to4", (ipaddress.IPv4Address((int(ip) >> 80) & 0xFFFFFFFF),)
    if ip in _TEREDO:
        server = ipaddress.IPv4Address((int(ip) >> 64) & 0xFFFFFFFF)
        client = ipaddress.IPv4Address(~int(ip) & 0xFFFFFFFF)
        return "Teredo", (server, client)
    return "", ()


def blocked_reason(address: IPAddress | str) -> str | None:
    """The reason code this address may not be contacted, or None when it may."""
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if isinstance(ip, ipaddress.IPv6Address) and ip.scope_id:
        ip = ipaddress.IPv6Address(str(ip).split("%", 1)[0])
    if ip in METADATA_ADDRESSES:
        return METADATA_REASON
    if isinstance(ip, ipaddress.IPv4Address):
        return _ipv4_reason(ip)
    kind, inner = embedded_ipv4(ip)
    for v4 in inner:
        reason = blocked_reason(v4)
        if reason is not None:
            return reason
    if kind in ("IPv4-mapped", "NAT64", "6to4", "Teredo"):
        # A translation of a public IPv4 address reaches that address and nothing else.
        return None
    if kind == "IPv4-compatible":
        return "reserved_address"  # deprecated since 2006; nothing routes it
    for network, reason in BLOCKED_IPV6:
        if ip in network:
            return reason
    if ip not in _GLOBAL_UNICAST:
        return "reserved_address"
    if not ip.is_global:
        return "special_purpose_address"
    return None


def _ipv4_reason(ip: ipaddress.IPv4Address) -> str | None:
    for network, reason in BLOCKED_IPV4:
        if ip in network:
            return reason
    if not ip.is_global:
        return "special_purpose_address"
    return None


def describe_block(address: IPAddress | str) -> str:
    """Words for why ``address`` is blocked ("a loopback address (IPv4 127.0.0.1 in 6to4)")."""
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    reason = blocked_reason(ip)
    if reason is None:
        return "an allowed address"
    words = "a cloud metadata address" if reason == METADATA_REASON else (
        "a " + reason.replace("_", " "))
    if isinstance(ip, ipaddress.IPv6Address):
        kind, inner = embedded_ipv4(ip)
        hit = [v4 for v4 in inner if blocked_reason(v4) is not None]
        if hit:
            words += f" (IPv4 {hit[0]} inside {kind})"
    return words


@dataclass(frozen=True)
class AllowHosts:
    """Hosts exempt from the address rule (tests and the demo only): ``host:port`` pairs, and
    hosts alone (``127.0.0.1``, ``127.0.0.1:*``, ``[::1]``), every port of theirs.

    An exemption never covers a cloud metadata address.
    """

    pairs: frozenset[str] = frozenset()
    #: Hosts every port of which is exempt.
    hosts: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, raw: str) -> tuple[AllowHosts, list[tuple[str, str]]]:
        """The exemptions ``raw`` (comma-separated entries) names, and each entry that can
        never match with the reason."""
        allow, unusable = _parsed(raw)
        return allow, list(unusable)

    @classmethod
    def _parse(cls, raw: str) -> tuple[AllowHosts, tuple[tuple[str, str], ...]]:
        pairs: set[str] = set()
        hosts: set[str] = set()
        unusable: list[tuple[str, str]] = []
        for entry in (e.strip().lower() for e in raw.split(",")):
            if not entry:
                continue
            host, port, why = _allow_entry(entry)
            if why is not None:
                unusable.append((entry, why))
            elif port is None:
                hosts.add(host)
            else:
                pairs.add(f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
        return cls(frozenset(pairs), frozenset(hosts)), tuple(unusable)

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> AllowHosts:
        """READRECEIPT_ALLOW_HOSTS; an entry that can never match is warned of, once."""
        env = os.environ if environ is None else environ
        raw = env.get(ALLOW_HOSTS_ENV, "")
        allow, unusable = cls.parse(raw)
        if unusable and raw not in _WARNED:
            _WARNED.add(raw)
            for entry, why in unusable:
                log.warning("%s: %r can never match (%s); an entry is host:port, or a host "
                            "alone for every port (127.0.0.1, [::1])", ALLOW_HOSTS_ENV, entry,
                            why)
        return allow

    def including(self, entries: Iterable[str]) -> AllowHosts:
        """These exemptions and ``entries`` (``host:port`` or a host alone) besides."""
        more, _ = self.parse(",".join(entries))
        return AllowHosts(self.pairs | more.pairs, self.hosts | more.hosts)

    def exempts(self, host: str, port: int) -> bool:
        host = host.lower().strip("[]").rstrip(".")
        return (host in self.hosts or f"{host}:{port}" in self.pairs
                or f"[{host}]:{port}" in self.pairs)

    def __bool__(self) -> bool:
        return bool(self.pairs or self.hosts)


@lru_cache(maxsize=16)
def _parsed(raw: str) -> tuple[AllowHosts, tuple[tuple[str, str], ...]]:
    """:meth:`AllowHosts.parse` of ``raw``, once a value: every capture reads the variable
    (``from_env``), and each entry costs an address parse and the URL policy's name test (a
    list of a hundred host:port pairs, as the benchmarks and a test setup pass, took about
    2.5 ms a capture). A pure function of the string, so the same exemptions; the value is
    immutable, so sharing it is safe."""
    return AllowHosts._parse(raw)


#: The READRECEIPT_ALLOW_HOSTS values already warned of in this process.
_WARNED: set[str] = set()

#: The characters of a host name an entry may give (a dot or hyphen neither first nor last).
_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-")


def _is_name(host: str) -> bool:
    # One pass over the characters: the regular expression this replaces rescanned the text
    # (the regex audit's finding, tests/test_regex_audit.py).
    return (bool(host) and host[0] not in ".-" and host[-1] not in ".-"
            and all(ch in _NAME_CHARACTERS for ch in host))


def _allow_entry(entry: str) -> tuple[str, int | None, str | None]:
    """(host, port or None for every port, why the entry can never match or None)."""
    if "/" in entry or "@" in entry:
        return entry, None, "it is a URL; give its host:port"
    if entry.startswith("["):
        host, close, rest = entry[1:].partition("]")
        if not close or (rest and not rest.startswith(":")):
            return entry, None, "an IPv6 address is written [address]:port"
        port_text = rest[1:] if rest else "*"
    elif entry.count(":") > 1:  # a bare IPv6 address: every port
        host, port_text = entry, "*"
    else:
        host, _, port_text = entry.partition(":")
        port_text = port_text or "*"
        if entry.endswith(":"):
            return entry, None, "no port after the colon"
    host = host.rstrip(".")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
        if not _is_name(host):
            return entry, None, "not a host name or an address"
        from readreceipt.fetching.urlpolicy import blocked_host_name

        if blocked_host_name(host) is not None:
            return entry, None, (f"the URL policy refuses the name {host} before any address is "
                                 "looked at; use the address (127.0.0.1)")
    if address is not None and address in METADATA_ADDRESSES:
        return entry, None, "a cloud metadata address is never exempted"
    if port_text == "*":
        return str(address) if address is not None else host, None, None
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        return entry, None, f"{port_text!r} is not a port (1 to 65535, or *)"
    return str(address) if address is not None else host, int(port_text), None
