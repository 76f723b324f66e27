package distribution

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// SourceColumnsRemoval is what remove_recipient_source_columns takes
// besides the campaign.
type SourceColumnsRemoval struct {
	ImportID string `json:"importId" jsonschema:"a finished import of the campaign" schema:"minLength=1,maxLength=100"`
	Indices  []int  `json:"indices" jsonschema:"the columns to remove, by their original position (0-based)" schema:"minItems=1,maxItems=100,items.minimum=0,items.maximum=99"`
}

// RemoveSourceColumns removes columns of a finished import of campaign
// campaignID: their cells are emptied in every stored row and they leave
// the columns retained for exports (a later download shows none of them).
// Removing a column again changes nothing. It returns VALIDATION_ERROR
// naming indices or indices[k]; NOT_FOUND naming importId (no finished
// import of that ID: finish it with save_recipient_import first) or id;
// DEMO_LIMITED; or the codes of Authorize (ActAddPeople).
func (s *Service) RemoveSourceColumns(ctx context.Context, p core.Principal, campaignID string, in SourceColumnsRemoval) (ImportSummary, error) {
	if err := authorizeImport(p); err != nil {
		return ImportSummary{}, err
	}
	if len(in.Indices) == 0 || len(in.Indices) > MaxImportColumns {
		return ImportSummary{}, core.Invalid("indices", "must list 1 to %d column positions", MaxImportColumns)
	}
	if _, err := s.Campaigns.LookupCampaign(ctx, p, campaignID); err != nil {
		return ImportSummary{}, err
	}
	now := s.Clock.Now()
	var sum ImportSummary
	err := s.InTx(ctx, func(q *db.Queries) error {
		imp, err := q.RecipientImportLock(ctx, db.RecipientImportLockParams{WorkspaceID: p.WorkspaceID, CampaignID: campaignID, ID: in.ImportID})
		if core.IsNoRows(err) {
			return core.FieldError(core.CodeNotFound, "importId", "no finished import %q in this campaign; finish the import with save_recipient_import before removing its columns", in.ImportID)
		}
		if err != nil {
			return core.Internal(err)
		}
		if err := json.Unmarshal(imp.Summary, &sum); err != nil {
			return core.Internal(err)
		}
		positions := make([]int32, 0, len(in.Indices))
		for k, i := range in.Indices {
			if i < 0 || i >= len(imp.Headers) {
				return core.Invalid(fmt.Sprintf("indices[%d]", k), "must be a column position from 0 to %d", len(imp.Headers)-1)
			}
			positions = append(positions, int32(i+1))
			sum.RetainedColumnIndices = slices.DeleteFunc(sum.RetainedColumnIndices, func(r int) bool { return r == i })
			if !slices.Contains(sum.RemovedColumnIndices, i) {
				sum.RemovedColumnIndices = append(sum.RemovedColumnIndices, i)
			}
		}
		slices.Sort(sum.RemovedColumnIndices)
		sum.UpdatedAt = now.UTC().Format(time.RFC3339)
		raw, err := json.Marshal(sum)
		if err != nil {
			return core.Internal(err)
		}
		err = q.RecipientImportRowsClearColumns(ctx, db.RecipientImportRowsClearColumnsParams{
			Positions: positions, WorkspaceID: p.WorkspaceID, CampaignID: campaignID, ImportID: imp.ID})
		if err != nil {
			return core.Internal(err)
		}
		return core.AsCoreError(q.RecipientImportUpdate(ctx, db.RecipientImportUpdateParams{Retained: int32s(sum.RetainedColumnIndices),
			Summary: raw, UpdatedAt: now, WorkspaceID: p.WorkspaceID, CampaignID: campaignID, ID: imp.ID}))
	})
	if err != nil {
		return ImportSummary{}, err
	}
	return sum, nil
}
