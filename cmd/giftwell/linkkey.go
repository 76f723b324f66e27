package main

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// serveLinkKeyFlag adds --link-key-file: the file holding the secret gift
// links are derived from (core.Config.LinkKey). Empty means gift-link.key in
// the data directory.
func serveLinkKeyFlag(fs *flag.FlagSet, cfg *serveConfig) {
	fs.StringVar(&cfg.linkKeyFile, "link-key-file", env("GIFTWELL_LINK_KEY_FILE", ""),
		"file with the secret gift links are derived from (64 hex characters), created when missing; default gift-link.key in --data-dir. Every instance needs the same file; a new key ends every link (env GIFTWELL_LINK_KEY_FILE)")
}

// linkKeyPath is where serve finds its link key.
func (cfg serveConfig) linkKeyPath() string {
	if cfg.linkKeyFile != "" {
		return cfg.linkKeyFile
	}
	return filepath.Join(cfg.dataDir, "gift-link.key")
}

// loadLinkKey reads the link key at path, or creates the file (mode 0600)
// with a new random key when it does not exist. A file that exists but
// does not hold 64 hex characters is an error: a new key would silently
// end every link made with the old one.
func loadLinkKey(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createLinkKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("link key: %w", err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil || len(key) != len(core.NewLinkKey()) {
		return nil, fmt.Errorf("link key %s: must hold 64 hex characters", path)
	}
	return key, nil
}

// createLinkKey writes a new key to path, which must not exist (two serves
// starting at once: the loser reads the winner's).
func createLinkKey(path string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("link key: %w", err)
	}
	key := core.NewLinkKey()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return loadLinkKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("link key: %w", err)
	}
	if _, err := f.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("link key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("link key: %w", err)
	}
	return key, nil
}
