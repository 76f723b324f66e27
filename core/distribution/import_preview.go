package distribution

import (
	"context"
	"encoding/json"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// previewRows is how many rows a preview shows.
const previewRows = 3

// ImportPreview is a staged upload read as a source CSV, with the field
// each column fills by its name: what the web app's import form shows so
// that a person can change the mapping before saving the import.
type ImportPreview struct {
	UploadID string
	Headers  []string
	// Fields is each column's field by its name (FieldOf).
	Fields []string
	// Sample is the first rows, as the CSV has them.
	Sample [][]string
	// Rows counts the CSV's rows.
	Rows int
	// Choices are the fields a column may be given: ImportFields, then
	// detail:<key> for each of the gift's details.
	Choices []string
}

// StageCSV stages a whole source CSV for campaign campaignID as a chunked
// upload (as upload_gift_source_chunk does, part by part, with the raw
// bytes and the campaign opened once) and returns its
// uploadId, for a caller holding the file at once (the web app's import
// form). It returns VALIDATION_ERROR naming uploadId for an empty or
// oversized file, and the codes of UploadSourceChunk.
func (s *Service) StageCSV(ctx context.Context, p core.Principal, campaignID string, raw []byte) (string, error) {
	if len(raw) == 0 {
		return "", core.Invalid("uploadId", "the file is empty; choose a CSV whose first line names the columns")
	}
	if len(raw) > MaxImportBytes {
		return "", core.Invalid("uploadId", "the file holds %d bytes; a source CSV holds at most %d (5 MiB)", len(raw), MaxImportBytes)
	}
	if err := authorizeImport(p); err != nil {
		return "", err
	}
	if _, err := s.openCampaign(ctx, p, campaignID); err != nil {
		return "", err
	}
	id := "web-" + core.RandomHex(8)
	count := (len(raw) + MaxPartBytes - 1) / MaxPartBytes
	for i := range count {
		part := raw[i*MaxPartBytes : min((i+1)*MaxPartBytes, len(raw))]
		meta := Chunk{UploadID: id, PartIndex: i, PartCount: count, TotalBytes: int64(len(raw))}
		if _, err := s.stagePart(ctx, p, campaignID, meta, part); err != nil {
			return "", err
		}
	}
	return id, nil
}

// PreviewUpload reads complete upload uploadID of campaign campaignID as a
// source CSV and suggests each column's field. It returns the
// VALIDATION_ERROR of save_recipient_import's checks of the CSV,
// DEMO_LIMITED, NOT_FOUND naming id, CAMPAIGN_COMPLETED, or the codes of
// Authorize (ActAddPeople).
func (s *Service) PreviewUpload(ctx context.Context, p core.Principal, campaignID, uploadID string) (ImportPreview, error) {
	if err := authorizeImport(p); err != nil {
		return ImportPreview{}, err
	}
	c, err := s.openCampaign(ctx, p, campaignID)
	if err != nil {
		return ImportPreview{}, err
	}
	t, err := s.table(ctx, p, campaignID, ImportRequest{UploadID: uploadID})
	if err != nil {
		return ImportPreview{}, err
	}
	out := ImportPreview{UploadID: uploadID, Headers: t.headers, Rows: len(t.rows), Sample: t.rows[:min(previewRows, len(t.rows))],
		Choices: append([]string(nil), ImportFields...)}
	details, _ := s.giftDetails(ctx, c.ProductID)
	for _, key := range details {
		out.Choices = append(out.Choices, detailFieldPrefix+key)
	}
	if out.Fields, err = mapColumns(t.headers, nil, details); err != nil {
		return ImportPreview{}, err
	}
	return out, nil
}

// GetImport reads the summary of campaign campaignID's finished import
// importID. It returns NOT_FOUND naming importId or id, or the codes of
// Authorize (ActRead).
func (s *Service) GetImport(ctx context.Context, p core.Principal, campaignID, importID string) (ImportSummary, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return ImportSummary{}, err
	}
	if _, err := s.Campaigns.LookupCampaign(ctx, p, campaignID); err != nil {
		return ImportSummary{}, err
	}
	var sum ImportSummary
	err := s.ReadTx(ctx, func(q *db.Queries) error {
		imp, err := q.RecipientImportGet(ctx, db.RecipientImportGetParams{WorkspaceID: p.WorkspaceID, CampaignID: campaignID, ID: importID})
		if core.IsNoRows(err) {
			return core.FieldError(core.CodeNotFound, "importId", "no finished import %q in this campaign", importID)
		}
		if err != nil {
			return core.Internal(err)
		}
		return core.AsCoreError(json.Unmarshal(imp.Summary, &sum))
	})
	return sum, err
}

// giftDetails are the keys of the recipient details gift productID asks
// for, and whether it needs a portrait; none when the catalog does not
// hold the gift.
func (s *Service) giftDetails(ctx context.Context, productID string) (keys []string, portrait bool) {
	prod, err := s.Campaigns.Catalog.Get(ctx, productID)
	if err != nil {
		return nil, false
	}
	for _, d := range prod.RecipientDetails {
		keys = append(keys, d.Key)
	}
	return keys, prod.RequiresPortrait
}
