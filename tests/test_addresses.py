"""The address rule: every special-purpose range, embedded IPv4, metadata, exemptions."""

from __future__ import annotations

import ipaddress

import pytest

from readreceipt.errors import RefusedError
from readreceipt.fetching.addresses import (
    BLOCKED_IPV4,
    BLOCKED_IPV6,
    AllowHosts,
    blocked_reason,
    describe_block,
    embedded_ipv4,
)
from readreceipt.fetching.netguard import AddressGuard, parse_pin

BLOCKED_V4 = [
    ("0.0.0.0", "this_network_address"), ("0.255.1.2", "this_network_address"),
    ("10.1.2.3", "private_address"), ("100.64.0.1", "shared_address"),
    ("100.127.255.254", "shared_address"), ("127.0.0.1", "loopback_address"),
    ("127.255.255.254", "loopback_address"), ("169.254.1.1", "link_local_address"),
    ("172.16.0.1", "private_address"), ("172.31.255.255", "private_address"),
    ("192.0.0.8", "protocol_assignment_address"), ("192.0.2.1", "documentation_address"),
    ("192.88.99.1", "relay_anycast_address"), ("192.168.1.1", "private_address"),
    ("198.18.0.1", "benchmarking_address"), ("198.19.255.255", "benchmarking_address"),
    ("198.51.100.7", "documentation_address"), ("203.0.113.9", "documentation_address"),
    ("224.0.0.1", "multicast_address"), ("239.255.255.250", "multicast_address"),
    ("240.0.0.1", "reserved_address"), ("255.255.255.255", "reserved_address"),
    ("192.31.196.1", "as112_address"), ("192.175.48.1", "as112_address"),
    ("192.52.193.1", "amt_address"),
]

BLOCKED_V6 = [
    ("::", "unspecified_address"), ("::1", "loopback_address"),
    ("fc00::1", "private_address"), ("fd12:3456::1", "private_address"),
    ("fe80::1", "link_local_address"), ("febf::1", "link_local_address"),
    ("fec0::1", "site_local_address"), ("ff02::1", "multicast_address"),
    ("ff0e::1", "multicast_address"), ("2001:db8::1", "documentation_address"),
    ("100::1", "discard_address"), ("2001:2::1", "protocol_assignment_address"),
    ("2001:10::1", "protocol_assignment_address"), ("3fff::1", "documentation_address"),
    ("5f00::1", "srv6_sid_address"), ("2620:4f:8000::1", "as112_address"),
    ("64:ff9b:1::7f00:1", "nat64_local_use_address"),
    ("64:ff9b:1::808:808", "nat64_local_use_address"),
    ("4000::1", "reserved_address"), ("::1:0:0:0:1", "reserved_address"),
]

EMBEDDED = [  # (address, reason): IPv4 inside IPv6 judged by the IPv4 address
    ("::ffff:127.0.0.1", "loopback_address"), ("::ffff:10.0.0.1", "private_address"),
    ("::ffff:169.254.169.254", "metadata_address"), ("::127.0.0.1", "loopback_address"),
    ("::10.0.0.1", "private_address"), ("64:ff9b::127.0.0.1", "loopback_address"),
    ("64:ff9b::a9fe:a9fe", "metadata_address"), ("64:ff9b::c0a8:1", "private_address"),
    ("2002:7f00:1::", "loopback_address"), ("2002:a00:1::1", "private_address"),
    ("2002:a9fe:a9fe::1", "metadata_address"),
    # Teredo: server 127.0.0.1; client 8.8.8.8 (bits inverted on the wire)
    ("2001:0:7f00:1::f7f7:f7f7", "loopback_address"),
    # Teredo: server 8.8.8.8; client 192.168.0.1 -> inverted 3f57:fffe
    ("2001:0:808:808::3f57:fffe", "private_address"),
]

METADATA = ["169.254.169.254", "fd00:ec2::254", "169.254.170.2", "169.254.170.23",
            "fd00:ec2::23", "100.100.100.200", "192.0.0.192", "168.63.129.16"]

ALLOWED = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "151.101.1.69", "2606:4700::1111",
           "2a00:1450:4001:82a::200e", "::ffff:8.8.8.8", "64:ff9b::808:808",
           "2002:808:808::1", "2001:0:808:808::f7f7:f7f7", "192.0.1.1", "100.128.0.1",
           "172.32.0.1", "11.0.0.1"]


@pytest.mark.parametrize(("addr", "reason"), BLOCKED_V4 + BLOCKED_V6)
def test_special_purpose_ranges_are_blocked(addr: str, reason: str) -> None:
    assert blocked_reason(addr) == reason


@pytest.mark.parametrize(("addr", "reason"), EMBEDDED)
def test_embedded_ipv4_is_judged_by_the_embedded_address(addr: str, reason: str) -> None:
    assert blocked_reason(addr) == reason
    assert "inside" in describe_block(addr) or reason == "metadata_address"


@pytest.mark.parametrize("addr", METADATA)
def test_metadata_addresses_have_their_own_reason(addr: str) -> None:
    assert blocked_reason(addr) == "metadata_address"
    assert "metadata" in describe_block(addr)


@pytest.mark.parametrize("addr", ALLOWED)
def test_public_addresses_are_allowed(addr: str) -> None:
    assert blocked_reason(addr) is None


def test_python_311_gaps_are_covered() -> None:
    # Each of these slips through ipaddress's is_private or is_global on Python 3.11.
    for addr in ("100.64.0.1", "::ffff:127.0.0.1", "2002:7f00:1::", "64:ff9b::a9fe:a9fe",
                 "::127.0.0.1", "192.0.0.192"):
        assert blocked_reason(addr) is not None, addr


def test_every_table_entry_blocks_its_first_and_last_address() -> None:
    entries: list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str]] = [
        *BLOCKED_IPV4, *BLOCKED_IPV6]
    for network, reason in entries:
        for ip in (network.network_address, network.broadcast_address):
            got = blocked_reason(ip)
            assert got is not None, (network, ip)
            if isinstance(ip, ipaddress.IPv6Address) and embedded_ipv4(ip)[1]:
                continue  # judged by the IPv4 inside it (Teredo's 2001::), blocked either way
            assert got in (reason, "metadata_address", "loopback_address",
                           "unspecified_address"), (network, ip, got)


def test_scoped_link_local_is_blocked() -> None:
    assert blocked_reason("fe80::1%eth0") == "link_local_address"


def test_embedded_ipv4_extraction() -> None:
    assert embedded_ipv4(ipaddress.IPv6Address("::ffff:1.2.3.4")) == (
        "IPv4-mapped", (ipaddress.IPv4Address("1.2.3.4"),))
    kind, inner = embedded_ipv4(ipaddress.IPv6Address("2001:0:4136:e378:8000:63bf:3fff:fdd2"))
    assert kind == "Teredo"
    assert inner == (ipaddress.IPv4Address("65.54.227.120"), ipaddress.IPv4Address("192.0.2.45"))
    assert embedded_ipv4(ipaddress.IPv6Address("2606:4700::1111")) == ("", ())


def test_allow_hosts_exempts_exact_pairs_only() -> None:
    allow = AllowHosts.from_env({"READRECEIPT_ALLOW_HOSTS": "127.0.0.1:8080, [::1]:9000"})
    assert allow.exempts("127.0.0.1", 8080)
    assert allow.exempts("::1", 9000)
    assert not allow.exempts("127.0.0.1", 8081)
    assert not allow.exempts("127.0.0.2", 8080)
    assert not AllowHosts.from_env({})


def test_guard_refuses_when_any_answer_is_blocked() -> None:
    class Two:
        def resolve(self, host: str, port: int) -> list[str]:
            return ["93.184.216.34", "10.0.0.5"]

    guard = AddressGuard(allow=AllowHosts(), resolver=Two())
    with pytest.raises(RefusedError) as info:
        guard.addresses_for("mixed.example", 80)
    assert info.value.reason == "private_address"


def test_guard_exemption_is_recorded_but_never_for_metadata() -> None:
    allow = AllowHosts(frozenset({"127.0.0.1:8080", "meta.example:80"}))
    guard = AddressGuard(allow=allow, pins={("meta.example", 80): "169.254.169.254"})
    assert guard.addresses_for("127.0.0.1", 8080) == ["127.0.0.1"]
    assert guard.exemptions_used == {"127.0.0.1:8080"}
    with pytest.raises(RefusedError) as info:
        guard.addresses_for("meta.example", 80)
    assert info.value.reason == "metadata_address"


def test_guard_resolves_a_name_once_per_capture() -> None:
    calls: list[str] = []

    class Counting:
        def resolve(self, host: str, port: int) -> list[str]:
            calls.append(host)
            return ["93.184.216.34"] if len(calls) == 1 else ["127.0.0.1"]

    guard = AddressGuard(allow=AllowHosts(), resolver=Counting())
    assert guard.addresses_for("Rebind.Example.", 80) == ["93.184.216.34"]
    assert guard.addresses_for("rebind.example", 80) == ["93.184.216.34"]
    assert calls == ["rebind.example"]


def test_guard_refuses_reserved_names_and_odd_hosts_whatever_the_resolver() -> None:
    class Public:
        def resolve(self, host: str, port: int) -> list[str]:
            return ["93.184.216.34"]

    guard = AddressGuard(allow=AllowHosts(), resolver=Public())
    for host in ("localhost", "db.internal", "metadata.google.internal", "printer.local"):
        with pytest.raises(RefusedError):
            guard.addresses_for(host, 80)
    with pytest.raises(RefusedError) as info:
        guard.addresses_for("evil.example\x00.good.example", 80)
    assert info.value.reason == "bad_host"


def test_parse_pin() -> None:
    assert parse_pin("Example.COM:443:93.184.216.34") == ("example.com", 443, "93.184.216.34")
    assert parse_pin("a.example:80:[::1]") == ("a.example", 80, "::1")
    assert parse_pin("a.example:80:1.2.3.4,[::ffff:127.0.0.1]") == (
        "a.example", 80, "1.2.3.4,::ffff:7f00:1")
    for bad in ("a.example:80", "a.example:x:1.2.3.4", "a.example:80:not-an-ip", ":80:1.2.3.4",
                "a.example:70000:1.2.3.4"):
        with pytest.raises(ValueError):
            parse_pin(bad)
