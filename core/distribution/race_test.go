package distribution_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/distribution"
)

// Eight uploads started at once: exactly four are staged (the capacity is
// checked under the workspace's lock), the others get UPLOAD_CAPACITY.
func TestUploadCapacityUnderRace(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	data := base64.StdEncoding.EncodeToString([]byte("name\n"))
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		ok, full int
	)
	for i := range 8 {
		wg.Go(func() {
			_, err := d.env.App.Distribution.UploadSourceChunk(context.Background(), d.key, d.c.ID,
				distribution.Chunk{UploadID: fmt.Sprint("race-", i), PartIndex: 0, PartCount: 2, TotalBytes: 10, Data: data})
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				ok++
			} else if core.ErrorCode(err) == core.CodeUploadCapacity {
				full++
			} else {
				t.Errorf("unexpected: %v", err)
			}
		})
	}
	wg.Wait()
	require.Equal(t, [2]int{4, 4}, [2]int{ok, full})
}

// The same import sent twice at once is imported once.
func TestSameImportTwiceAtOnce(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = d.env.App.Distribution.SaveImport(context.Background(), d.key, d.c.ID, table("twice", 20))
		})
	}
	wg.Wait()
	require.False(t, errs[0] != nil && errs[1] != nil, "%v / %v", errs[0], errs[1])
	for _, err := range errs {
		if err != nil {
			requireCode(t, err, core.CodeValidation, "importId")
		}
	}
	c, err := d.env.App.Campaigns.GetCampaign(context.Background(), d.key, d.c.ID)
	require.NoError(t, err)
	require.Len(t, c.Recipients, 20)
}
