package webhooksend_test

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
)

// fakeDNS answers names from a table, without a network. A name with
// several answers gives them one per lookup, the last one from then on
// (DNS rebinding).
type fakeDNS struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	asked   map[string]int
}

func newFakeDNS(table map[string][]string) *fakeDNS {
	f := &fakeDNS{answers: map[string][][]netip.Addr{}, asked: map[string]int{}}
	for name, addrs := range table {
		f.set(name, addrs...)
	}
	return f
}

// set gives name one answer per address list element, in order: set(n,
// "93.184.215.14", "127.0.0.1") answers the first lookup with the public
// address and every later one with 127.0.0.1. An answer may list several
// addresses, comma-separated; an empty one means "no such host".
func (f *fakeDNS) set(name string, answers ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var list [][]netip.Addr
	for _, a := range answers {
		if a == "" {
			list = append(list, nil)
			continue
		}
		var addrs []netip.Addr
		for _, one := range strings.Split(a, ",") {
			addrs = append(addrs, netip.MustParseAddr(one))
		}
		list = append(list, addrs)
	}
	f.answers[name] = list
}

// LookupNetIP implements webhooksend.Resolver.
func (f *fakeDNS) LookupNetIP(ctx context.Context, _, host string) ([]netip.Addr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	list, ok := f.answers[host]
	n := f.asked[host]
	f.asked[host]++
	if !ok || len(list) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	if n >= len(list) {
		n = len(list) - 1
	}
	if list[n] == nil {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return list[n], nil
}
