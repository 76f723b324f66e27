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

// serveSecretKeyFlag adds --secret-key-file: the file holding the service's
// secret key, from which gift-link tokens and webhook signing secrets are
// derived (core.Config.SecretKey). Empty means secret.key in the data
// directory.
func serveSecretKeyFlag(fs *flag.FlagSet, cfg *serveConfig) {
	fs.StringVar(&cfg.secretKeyFile, "secret-key-file", env("GIFTWELL_SECRET_KEY_FILE", ""),
		"file with the key gift links and webhook secrets are derived from (64 hex characters), created when missing; default secret.key in --data-dir. Every instance needs the same file; a new key ends every link and webhook secret (env GIFTWELL_SECRET_KEY_FILE)")
}

// secretKeyPath is where serve finds its secret key.
func (cfg serveConfig) secretKeyPath() string {
	if cfg.secretKeyFile != "" {
		return cfg.secretKeyFile
	}
	return filepath.Join(cfg.dataDir, "secret.key")
}

// loadSecretKey reads the secret key at path, or creates the file (mode 0600)
// with a new random key when it does not exist. A file that exists but
// does not hold 64 hex characters is an error: a new key would silently
// end every link made with the old one.
func loadSecretKey(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createSecretKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil || len(key) != len(core.NewSecretKey()) {
		return nil, fmt.Errorf("secret key %s: must hold 64 hex characters", path)
	}
	return key, nil
}

// createSecretKey writes a new key to path, which must not exist (two serves
// starting at once: the loser reads the winner's).
func createSecretKey(path string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	key := core.NewSecretKey()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return loadSecretKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	if _, err := f.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("secret key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	return key, nil
}
