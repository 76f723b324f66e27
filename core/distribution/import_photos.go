package distribution

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/campaign"
)

// photoFetchers is how many photos an import fetches at once.
const photoFetchers = 4

// photoBudget bounds the time one import spends fetching photos, well
// within the server's 60-second write timeout; URLs not fetched by then
// get a notice instead.
const photoBudget = 30 * time.Second

// importedPhoto is what became of one photo URL of an import: the
// portrait asset it became, or why it did not (a phrase that follows "the
// photo_url link").
type importedPhoto struct {
	assetID string
	problem string
}

// importPhotos imports each distinct photo URL of an import as a portrait,
// through import_recipient_photo's own path (artwork.ImportPhoto: the SSRF
// guard, the size cap and timeout, the daily photo-import limit, the
// storage limits), before the import's transaction and outside it, a few
// at a time within the import's photo budget. rights is the request's rightsConfirmed:
// without it nothing is fetched. Every URL gets an answer.
func (s *Service) importPhotos(ctx context.Context, p core.Principal, urls []string, rights bool) map[string]importedPhoto {
	out := make(map[string]importedPhoto, len(urls))
	var todo []string
	for _, u := range urls {
		if _, seen := out[u]; seen {
			continue
		}
		switch {
		case !rights:
			out[u] = importedPhoto{problem: "is fetched only with rightsConfirmed: true (the user confirmed they may use the rows' photos)"}
		case s.Artwork == nil:
			out[u] = importedPhoto{problem: "was not fetched: photo imports are not available here"}
		default:
			out[u] = importedPhoto{}
			todo = append(todo, u)
		}
	}
	if len(todo) == 0 {
		return out
	}
	budget := s.PhotoBudget
	if budget <= 0 {
		budget = photoBudget
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		jobs = make(chan string)
	)
	for range min(photoFetchers, len(todo)) {
		wg.Go(func() {
			for u := range jobs {
				got := s.importPhoto(ctx, p, u)
				mu.Lock()
				out[u] = got
				mu.Unlock()
			}
		})
	}
	for _, u := range todo {
		jobs <- u
	}
	close(jobs)
	wg.Wait()
	return out
}

// photoReuse is how long a photo an import fetched serves the same URL in
// the workspace's later imports (an import sent again after a failure).
const photoReuse = 24 * time.Hour

// importPhoto imports one photo URL, or says why it was not imported; a
// portrait imported from the same URL within photoReuse is used again.
func (s *Service) importPhoto(ctx context.Context, p core.Principal, u string) importedPhoto {
	if ctx.Err() != nil {
		return importedPhoto{problem: "was not fetched: the import's time for fetching photos ran out"}
	}
	if a, ok, err := s.Artwork.RecentPhotoImport(ctx, p, u, s.Clock.Now().Add(-photoReuse)); err == nil && ok {
		return importedPhoto{assetID: a.ID}
	}
	a, err := s.Artwork.ImportPhoto(ctx, p, artwork.PhotoImport{URL: u, RightsConfirmed: true})
	if err != nil {
		e := core.AsError(err)
		if msg, ok := strings.CutPrefix(e.Message, "url: "); ok && e.Code == core.CodeValidation {
			return importedPhoto{problem: msg}
		}
		return importedPhoto{problem: "was not imported: " + e.Message}
	}
	return importedPhoto{assetID: a.ID}
}

// withPhoto gives person the photo its row's URL became, or the notice
// that it did not: the LinkedIn profile stays the photo, if the row has one.
func withPhoto(person *campaign.RecipientInput, got importedPhoto) *rowNotice {
	if got.assetID != "" {
		person.Photo = &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: got.assetID}
		return nil
	}
	msg := "photo: the photo_url link " + got.problem
	if person.Photo != nil {
		msg += "; the LinkedIn profile is the portrait instead"
	} else {
		msg += "; the person has no portrait yet"
	}
	return &rowNotice{fields: []string{"photo"}, message: msg}
}
