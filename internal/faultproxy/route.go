package faultproxy

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Route starts a proxy to the server cfg names (a unix socket directory or
// a TCP host and port) and points cfg at the proxy instead, so that every
// connection made with cfg passes through it.
func Route(cfg *pgconn.Config) (*Proxy, error) {
	network, addr := "tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
	if strings.HasPrefix(cfg.Host, "/") {
		network, addr = "unix", filepath.Join(cfg.Host, ".s.PGSQL."+strconv.Itoa(int(cfg.Port)))
	}
	p, err := Start(network, addr)
	if err != nil {
		return nil, fmt.Errorf("faultproxy: %w", err)
	}
	cfg.Host, cfg.Port, cfg.Fallbacks = p.Host(), p.Port(), nil
	return p, nil
}
