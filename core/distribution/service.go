// Package distribution is how a campaign's people come in and its gift links
// go out through the customer's own tools: CSV exports of gift links (kept
// as their parameters; the file is built at download, which rechecks access
// and each link), chunked uploads of source CSVs staged in the database,
// source imports that become roster people through core/campaign's add path,
// and the removal of an import's source columns
// (docs/decisions/0078-gift-link-exports.md, 0079-chunked-source-uploads.md,
// 0080-recipient-imports.md).
package distribution

import (
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/giftlink"
)

// Service keeps exports, staged uploads and source imports.
type Service struct {
	*core.Kernel
	// Campaigns adds an import's rows to the roster (add_recipients' rules).
	Campaigns *campaign.Service
	// GiftLinks selects the gift-link records an export writes.
	GiftLinks *giftlink.Service
	// Artwork imports the photos an import's photo_url column links to
	// (import_recipient_photo's path); nil fetches none.
	Artwork *artwork.Service
	// PhotoBudget bounds the time one import spends fetching photos; zero
	// means photoBudget (30 seconds).
	PhotoBudget time.Duration
}
