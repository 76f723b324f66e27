package campaign

import (
	"context"
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/sql/db"
)

// CheckArtwork refuses, with ARTWORK_UNAVAILABLE naming the field, a
// request that names an asset that is not a ready file of the workspace
// fit for its use: customization.logoAssetId (a ready image), a person's
// assetIds (any ready file) and an uploaded photo (a ready portrait).
// Recipients are named by path(i). IDs that are not asset IDs at all are
// left to validation, which names them as VALIDATION_ERROR. A ready asset
// never goes back, so the check reads outside the write's transaction.
func (a *Service) CheckArtwork(ctx context.Context, workspaceID string, customization map[string]string, recipients []RecipientInput, path func(i int) string) error {
	var named []artwork.Named
	add := func(field, id string, use artwork.Use) {
		if id = strings.TrimSpace(id); strings.HasPrefix(id, "asset_") {
			named = append(named, artwork.Named{Field: field, ID: id, Use: use})
		}
	}
	add("customization."+CustomizationLogoAssetID, customization[CustomizationLogoAssetID], artwork.UseLogo)
	for i, r := range recipients {
		// Malformed IDs are validation's to name first.
		var pr Problems
		checkAssetIDs(r.AssetIDs, path(i)+".assetIds", &pr)
		if r.Photo != nil {
			checkPhoto(*r.Photo, path(i)+".photo", &pr)
		}
		if len(pr.fields) > 0 {
			return nil
		}
		for j, id := range r.AssetIDs {
			add(fmt.Sprintf("%s.assetIds[%d]", path(i), j), id, artwork.UseArtwork)
		}
		if r.Photo != nil && r.Photo.Source == PhotoUpload {
			add(path(i)+".photo.assetId", r.Photo.AssetID, artwork.UsePortrait)
		}
	}
	return artwork.CheckReady(ctx, db.New(a.DB), workspaceID, named)
}

// recipientsPath names the people of a request's recipients list.
func recipientsPath(i int) string { return fmt.Sprintf("recipients[%d]", i) }
