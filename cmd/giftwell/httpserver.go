package main

import (
	"net/http"
	"time"
)

// serverLimits are the transport bounds of an HTTP server: how long a
// client may take to send a request's headers and its whole request, how
// long a response may take from the end of the headers, how long a
// keep-alive connection may sit idle, and how large the headers may be.
// docs/decisions/0096-http-server-timeouts-and-bodies.md gives the reasons
// for the values.
type serverLimits struct {
	readHeader, read, write, idle time.Duration
	maxHeaderBytes                int
}

// defaultServerLimits are serve's. Nothing streams (MCP answers JSON only,
// with no SSE; exports are files), so one WriteTimeout bounds every
// response.
var defaultServerLimits = serverLimits{
	readHeader:     10 * time.Second,
	read:           30 * time.Second,
	write:          60 * time.Second,
	idle:           30 * time.Second,
	maxHeaderBytes: 64 << 10,
}

// newHTTPServer is an http.Server for h with the limits l.
func newHTTPServer(h http.Handler, l serverLimits) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.readHeader,
		ReadTimeout:       l.read,
		WriteTimeout:      l.write,
		IdleTimeout:       l.idle,
		MaxHeaderBytes:    l.maxHeaderBytes,
	}
}
