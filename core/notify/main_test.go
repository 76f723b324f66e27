package notify_test

import (
	"os"
	"testing"

	"github.com/giftwell/giftwell/internal/testdb"
)

// TestMain stops the package's throwaway PostgreSQL cluster after the tests.
func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }
