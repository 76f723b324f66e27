package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/distribution"
)

// SaveRecipientImportInput is save_recipient_import's input: the campaign
// and the import.
type SaveRecipientImportInput struct {
	ID string `json:"id" jsonschema:"the campaign ID" schema:"minLength=1,maxLength=200"`
	distribution.ImportRequest
}

// UploadGiftSourceChunkInput is upload_gift_source_chunk's input: the
// campaign and one part.
type UploadGiftSourceChunkInput struct {
	ID string `json:"id" jsonschema:"the campaign ID" schema:"minLength=1,maxLength=200"`
	distribution.Chunk
}

// RemoveRecipientSourceColumnsInput is remove_recipient_source_columns'
// input: the campaign, the import and the columns.
type RemoveRecipientSourceColumnsInput struct {
	ID string `json:"id" jsonschema:"the campaign ID" schema:"minLength=1,maxLength=200"`
	distribution.SourceColumnsRemoval
}

const descSaveRecipientImport = "Import a CSV list (headers and rows, or a complete upload's uploadId) into a campaign's roster: " +
	"each row becomes a person by add_recipients' rules; rows those rules refuse are listed in problems. " +
	"A row whose only refused cells are optional (email, company, title, linkedin_url, a gift detail) is added without them and listed in notices. " +
	"With rightsConfirmed, photo_url images are fetched as import_recipient_photo does and win over linkedin_url. " +
	"At most 500 rows per campaign, 100 columns, 10,000 characters per cell."

const descUploadGiftSourceChunk = "Upload a CSV too large for one call in base64 parts (150,000 bytes each, up to 384) for save_recipient_import. " +
	"Resend a timed-out part with the same bytes; with retryAfterMs, resend the last part after it until complete is true."

const descRemoveRecipientSourceColumns = "Remove columns (by original position) of a finished import: their cells are emptied and original-preset exports stop carrying them."

// importTools are the source-import tools.
func importTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("save_recipient_import", descSaveRecipientImport, ScopeWrite, core.ActAddPeople,
			func(ctx context.Context, p core.Principal, in SaveRecipientImportInput) (distribution.ImportSummary, error) {
				return app.Distribution.SaveImport(ctx, p, in.ID, in.ImportRequest)
			},
			Title("Import a CSV list"), REST(http.MethodPost, "/campaigns/{id}/distribution/imports", http.StatusOK, Connections())),
		Define("upload_gift_source_chunk", descUploadGiftSourceChunk, ScopeWrite, core.ActAddPeople,
			func(ctx context.Context, p core.Principal, in UploadGiftSourceChunkInput) (distribution.UploadProgress, error) {
				return app.Distribution.UploadSourceChunk(ctx, p, in.ID, in.Chunk)
			},
			Title("Upload a CSV part"), Idempotent(), REST(http.MethodPost, "/campaigns/{id}/distribution/import-chunks", http.StatusOK, Connections())),
		Define("remove_recipient_source_columns", descRemoveRecipientSourceColumns, ScopeWrite, core.ActAddPeople,
			func(ctx context.Context, p core.Principal, in RemoveRecipientSourceColumnsInput) (distribution.ImportSummary, error) {
				return app.Distribution.RemoveSourceColumns(ctx, p, in.ID, in.SourceColumnsRemoval)
			},
			Title("Remove an import's source columns"), Destructive(), Idempotent(), REST(http.MethodDelete, "/campaigns/{id}/distribution/source-columns", http.StatusOK, Connections(), JSONBody())),
	}
}
