package core

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
)

// secretKeyBytes is the size of the secret key and of what Derive returns.
const secretKeyBytes = 32

// RandomBytes returns n bytes from crypto/rand.
func RandomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+).
	return b
}

// NewSecretKey returns a fresh random secret key (Config.SecretKey).
func NewSecretKey() []byte { return RandomBytes(secretKeyBytes) }

// Derive is HMAC-SHA256 under the secret key over label and parts, each
// followed by a NUL but the last: the one way a secret the database never
// holds (a gift-link token, a webhook signing secret) is made again from
// what it does hold. Each use has its own label.
func (c Config) Derive(label string, parts ...[]byte) []byte {
	mac := hmac.New(sha256.New, c.SecretKey)
	mac.Write([]byte(label))
	for _, p := range parts {
		mac.Write([]byte{0})
		mac.Write(p)
	}
	return mac.Sum(nil)
}
