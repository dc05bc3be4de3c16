package webhooks

import (
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// specialPurpose lists every range of the IANA IPv4 and IPv6 Special-Purpose
// Address Registries (RFC 6890 and its updates) that is not globally
// reachable, plus multicast: the ranges code.dny.dev/ssrf derives from the
// same registries, kept here because the library takes no dependency for
// it. Webhook endpoints resolving into any of them are refused unless
// Config.AllowPrivate is set. Sources:
// https://www.iana.org/assignments/iana-ipv4-special-registry and
// https://www.iana.org/assignments/iana-ipv6-special-registry (2025).
var specialPurpose = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		// IPv4
		"0.0.0.0/8",          // "this network" (RFC 791)
		"10.0.0.0/8",         // private-use (RFC 1918)
		"100.64.0.0/10",      // shared address space, carrier-grade NAT (RFC 6598)
		"127.0.0.0/8",        // loopback (RFC 1122)
		"169.254.0.0/16",     // link local (RFC 3927)
		"172.16.0.0/12",      // private-use (RFC 1918)
		"192.0.0.0/24",       // IETF protocol assignments (RFC 6890)
		"192.0.2.0/24",       // documentation TEST-NET-1 (RFC 5737)
		"192.31.196.0/24",    // AS112-v4 (RFC 7535)
		"192.52.193.0/24",    // AMT (RFC 7450)
		"192.88.99.0/24",     // deprecated 6to4 relay anycast (RFC 7526)
		"192.168.0.0/16",     // private-use (RFC 1918)
		"192.175.48.0/24",    // direct delegation AS112 service (RFC 7534)
		"198.18.0.0/15",      // benchmarking (RFC 2544)
		"198.51.100.0/24",    // documentation TEST-NET-2 (RFC 5737)
		"203.0.113.0/24",     // documentation TEST-NET-3 (RFC 5737)
		"224.0.0.0/4",        // multicast (RFC 5771)
		"240.0.0.0/4",        // reserved (RFC 1112)
		"255.255.255.255/32", // limited broadcast (RFC 919)
		// IPv6
		"::/128",         // unspecified (RFC 4291)
		"::1/128",        // loopback (RFC 4291)
		"::ffff:0:0/96",  // IPv4-mapped (checked again as IPv4 below)
		"64:ff9b::/96",   // IPv4/IPv6 translation (RFC 6052)
		"64:ff9b:1::/48", // local-use IPv4/IPv6 translation (RFC 8215)
		"100::/64",       // discard-only (RFC 6666)
		"100:0:0:1::/64", // dummy IPv6 prefix (RFC 9780)
		"2001::/23",      // IETF protocol assignments (RFC 2928)
		"2001:db8::/32",  // documentation (RFC 3849)
		"2002::/16",      // 6to4 (RFC 3056)
		"3fff::/20",      // documentation (RFC 9637)
		"5f00::/16",      // segment routing SIDs (RFC 9602)
		"fc00::/7",       // unique local (RFC 4193)
		"fe80::/10",      // link-local unicast (RFC 4291)
		"fec0::/10",      // deprecated site-local (RFC 3879)
		"ff00::/8",       // multicast (RFC 4291)
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// IsSpecialPurpose reports whether ip is in a special-purpose range that a
// webhook must not reach (see specialPurpose). IPv4-mapped IPv6 addresses
// are judged as the IPv4 address they carry.
func IsSpecialPurpose(ip netip.Addr) bool {
	if !ip.IsValid() {
		return true
	}
	ip = ip.WithZone("")
	if ip.Is4In6() {
		ip = ip.Unmap()
	}
	for _, p := range specialPurpose {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// refusePrivate runs at connect time, on the address actually dialled
// (after DNS resolution), so a name that resolves to a public address at
// configuration time and to a special-purpose one later (DNS rebinding)
// is still refused.
func refusePrivate(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || IsSpecialPurpose(ip) {
		return fmt.Errorf("%w: %s", ErrPrivateAddress, host)
	}
	return nil
}
