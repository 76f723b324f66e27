package faultproxy_test

import (
	"bufio"
	"io"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/faultproxy"
)

// echo starts a TCP server that echoes every line back.
func echo(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(c, c); _ = c.Close() }()
		}
	}()
	return l.Addr().String()
}

// roundTrip sends a line through c and reads it back.
func roundTrip(t *testing.T, c net.Conn) {
	t.Helper()
	require.NoError(t, c.SetDeadline(time.Now().Add(5*time.Second)))
	_, err := c.Write([]byte("ping\n"))
	require.NoError(t, err)
	line, err := bufio.NewReader(c).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ping\n", line)
}

func TestProxyCutsRefusesAndDelays(t *testing.T) {
	t.Parallel()
	p, err := faultproxy.Start("tcp", echo(t))
	require.NoError(t, err)
	t.Cleanup(p.Close)
	addr := net.JoinHostPort(p.Host(), strconv.Itoa(int(p.Port())))
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		return c
	}

	c := dial()
	roundTrip(t, c)

	// Cut: the open connection ends; a new one works.
	p.Cut()
	_, err = bufio.NewReader(c).ReadString('\n')
	require.Error(t, err)
	roundTrip(t, dial())

	// Down: nothing listens; Up: the same address works again.
	p.Down()
	_, err = net.DialTimeout("tcp", addr, time.Second)
	require.Error(t, err)
	require.NoError(t, p.Up())
	roundTrip(t, dial())

	// Latency: each chunk waits, both ways.
	p.SetLatency(50 * time.Millisecond)
	start := time.Now()
	roundTrip(t, dial())
	require.GreaterOrEqual(t, time.Since(start), 100*time.Millisecond)
	require.Equal(t, faultproxy.Stats{Connections: 4, Cuts: 2}, p.Stats())
}
