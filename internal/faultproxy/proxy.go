// Package faultproxy is a TCP proxy for fault tests: it stands between the
// service and PostgreSQL and can drop every connection, refuse new ones
// (the database is down) and delay traffic, so that tests see what callers
// see when the database goes away and comes back.
//
//	p, err := faultproxy.Start("unix", "/tmp/pg/.s.PGSQL.5432")
//	cfg.ConnConfig.Host, cfg.ConnConfig.Port = p.Host(), p.Port()
//	p.Down()  // every connection cut, new ones refused
//	p.Up()    // the database is back
package faultproxy

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"
)

// Proxy forwards TCP connections on a loopback port to an upstream address.
type Proxy struct {
	network, upstream string
	addr              string // the loopback address it listens on, kept across Down and Up

	mu       sync.Mutex
	ln       net.Listener // nil while down
	conns    map[net.Conn]struct{}
	latency  time.Duration
	accepted int
	cuts     int
	closed   bool
	wg       sync.WaitGroup
}

// Start listens on a free loopback port and forwards each connection to
// upstream (network "tcp" or "unix").
func Start(network, upstream string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{network: network, upstream: upstream, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	p.serve(ln)
	return p, nil
}

// Host is the address's host: 127.0.0.1.
func (p *Proxy) Host() string { h, _, _ := net.SplitHostPort(p.addr); return h }

// Port is the port the proxy listens on.
func (p *Proxy) Port() uint16 {
	_, s, _ := net.SplitHostPort(p.addr)
	n, _ := strconv.ParseUint(s, 10, 16)
	return uint16(n)
}

// serve accepts on ln until it is closed.
func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Go(func() { p.forward(c) })
		}
	})
}

// forward copies between the client c and a new upstream connection.
func (p *Proxy) forward(c net.Conn) {
	u, err := net.DialTimeout(p.network, p.upstream, 5*time.Second)
	if err != nil {
		_ = c.Close()
		return
	}
	p.mu.Lock()
	if p.closed || p.ln == nil {
		p.mu.Unlock()
		_ = c.Close()
		_ = u.Close()
		return
	}
	p.conns[c], p.conns[u] = struct{}{}, struct{}{}
	p.accepted++
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = p.copy(dst, src)
		done <- struct{}{}
	}
	go pipe(u, c)
	go pipe(c, u)
	<-done
	_ = c.Close()
	_ = u.Close()
	<-done
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, u)
	p.mu.Unlock()
}

// copy is io.Copy that waits the current latency before passing each chunk on.
func (p *Proxy) copy(dst io.Writer, src io.Reader) (int64, error) {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		r, err := src.Read(buf)
		if r > 0 {
			if d := p.Latency(); d > 0 {
				time.Sleep(d)
			}
			w, werr := dst.Write(buf[:r])
			n += int64(w)
			if werr != nil {
				return n, werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			return n, err
		}
	}
}

// Cut drops every open connection at once (both sides see it end), as a
// database restart or a network fault does; new connections still work.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutLocked()
}

func (p *Proxy) cutLocked() {
	for c := range p.conns {
		_ = c.Close()
	}
	p.cuts++
}

// Down cuts every connection and refuses new ones (nothing listens at the
// address) until Up.
func (p *Proxy) Down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	p.cutLocked()
}

// Up listens at the same address again after Down.
func (p *Proxy) Up() error {
	p.mu.Lock()
	if p.ln != nil || p.closed {
		p.mu.Unlock()
		return nil
	}
	p.mu.Unlock()
	var err error
	for range 50 {
		var ln net.Listener
		if ln, err = net.Listen("tcp", p.addr); err == nil {
			p.serve(ln)
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("faultproxy: listen again on %s: %w", p.addr, err)
}

// SetLatency delays every chunk of traffic, both ways, by d (0: none).
func (p *Proxy) SetLatency(d time.Duration) {
	p.mu.Lock()
	p.latency = d
	p.mu.Unlock()
}

// Latency is the current delay.
func (p *Proxy) Latency() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.latency
}

// Stats are what the proxy did: connections forwarded and cuts made.
type Stats struct{ Connections, Cuts int }

// Stats reports the connections forwarded and the cuts made so far.
func (p *Proxy) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Stats{Connections: p.accepted, Cuts: p.cuts}
}

// Close stops the proxy and drops every connection.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.closed = true
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
