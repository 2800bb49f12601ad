"""Which IP addresses a fetch may connect to: public unicast only.

`ipaddress.is_global` alone is not enough: an IPv6 address can carry an IPv4 one (mapped `::ffff:a.b.c.d`,
compatible `::a.b.c.d`, 6to4 `2002:AABB:CCDD::`, NAT64 `64:ff9b::a.b.c.d`, Teredo), which the network may deliver
to that IPv4 address; each embedded address is checked as if it were the destination (for the reason given), and
the IPv6 address itself must be global too (mapped, compatible and NAT64 forms never are: refused whatever they
carry).
"""

from __future__ import annotations

import ipaddress

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_COMPATIBLE = ipaddress.ip_network("::/96")
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}


def address_refusal(address: IPAddress) -> str | None:
    """Why `address` may not be fetched from (a short phrase), or None for a public unicast address."""
    if address in _METADATA:
        return "a cloud instance metadata address"
    if isinstance(address, ipaddress.IPv6Address):
        for label, embedded in _embedded_ipv4(address):
            reason = address_refusal(embedded)
            if reason is not None:
                return f"the {label} form of {embedded}, {reason}"
    return _category(address)


def internal_refusal(address: IPAddress) -> str | None:
    """Why `address` may not be fetched from even for a host the operator allowed: an instance metadata address
    (IPv4 or IPv6, or carried in an IPv6 form), the unspecified address, or multicast; None otherwise."""
    embedded = (
        [address, *(inner for _, inner in _embedded_ipv4(address))]
        if isinstance(address, ipaddress.IPv6Address)
        else [address]
    )
    if any(candidate in _METADATA for candidate in embedded):
        return "a cloud instance metadata address"
    if address.is_unspecified or address.is_multicast:
        return "an unspecified address" if address.is_unspecified else "a multicast address"
    return None


def _category(address: IPAddress) -> str | None:
    checks = (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
        ("site-local", isinstance(address, ipaddress.IPv6Address) and address.is_site_local),
    )
    for name, matched in checks:
        if matched:
            return f"{'an' if name[0] in 'aeiou' else 'a'} {name} address"
    if not address.is_global:
        return "not a globally routable address"
    return None


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[tuple[str, ipaddress.IPv4Address]]:
    found: list[tuple[str, ipaddress.IPv4Address]] = []
    if address.ipv4_mapped is not None:
        found.append(("IPv4-mapped", address.ipv4_mapped))
    elif address in _COMPATIBLE and int(address) > 1:
        found.append(("IPv4-compatible", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)))
    if address.sixtofour is not None:
        found.append(("6to4", address.sixtofour))
    if address.teredo is not None:
        server, client = address.teredo
        found += [("Teredo server", server), ("Teredo client", client)]
    if any(address in network for network in _NAT64):
        found.append(("NAT64", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)))
    return found
