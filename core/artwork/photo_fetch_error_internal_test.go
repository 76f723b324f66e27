package artwork

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each of the fetcher's short texts maps to a fixed phrase that carries
// none of the text's addresses or names.
func TestFetchPhrase(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errors.New("timed out after 10s"), fetchTimedOut},
		{fmt.Errorf("get: %w", context.DeadlineExceeded), fetchTimedOut},
		{errors.New("dial refused: 10.0.0.7 is a private address, not a public address"), fetchNotPublic},
		{errors.New("refused: url: 169.254.169.254 is a cloud metadata service address, not a public address"), fetchNotPublic},
		{errors.New("refused: url: port 99999 is not a TCP port"), fetchRefusedURL},
		{errors.New("the answer is larger than 5242880 bytes"), fetchTooLarge},
		{errors.New("does not resolve: internal.corp.example: no such host"), fetchNoHost},
		{errors.New("TLS: certificate not trusted: x509: certificate signed by unknown authority"), fetchTLS},
		{errors.New("cancelled: context canceled"), fetchCancelled},
		{errors.New("connection refused"), fetchNoAnswer},
		{errors.New("read tcp 10.1.2.3:443: something odd"), fetchNoAnswer},
	} {
		require.Equal(t, tc.want, fetchPhrase(tc.err), tc.err.Error())
	}
}
