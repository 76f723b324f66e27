package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// Look-alike addresses are refused with a message naming the field;
// ordinary ones, including single-script international ones, pass.
func TestCheckEmailRefusesLookAlikes(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{
		"owner@example.com", "ann.lee+gifts@mail.example.co.uk", "o'brien@example.ie",
		"иван@пример.рф", "用户@例子.公司", "josé@example.es", "tanaka太郎@example.jp", "a1@x9.example",
	} {
		require.NoError(t, core.CheckEmail("email", ok), ok)
	}
	for addr, want := range map[string]string{
		"owner@example.com\u200b": "invisible",
		"own\u200der@example.com": "invisible",
		"owner@exam\u00a0ple.com": "invisible",
		"\u202eowner@example.com": "invisible",
		"\u043ewner@example.com":  "alphabets", // Cyrillic о in a Latin local part
		"owner@ex\u0430mple.com":  "alphabets", // Cyrillic а in a Latin label
		"pаypal@example.com":      "alphabets",
		"a@b":                     "a dot",
		"a@localhost":             "a dot",
		"Ann <ann@example.com>":   "plain email",
		"":                        "required",
	} {
		err := core.CheckEmail("email", addr)
		require.Error(t, err, "%q", addr)
		e := core.AsError(err)
		require.Equal(t, []string{"email"}, e.Fields, "%q", addr)
		require.Contains(t, e.Message, want, "%q", addr)
	}
}
