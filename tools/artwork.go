package tools

import (
	"context"
	"net/http"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/artwork"
)

// UploadArtworkInput is upload_artwork's input on MCP: the file as base64.
type UploadArtworkInput struct {
	Filename string `json:"filename" jsonschema:"letters, digits, spaces, dots, underscores, parentheses, hyphens; extension matching mime" schema:"minLength=1,maxLength=180"`
	Mime     string `json:"mime" jsonschema:"image/png, image/jpeg, image/webp or application/pdf (SVG and HTML are refused)" schema:"minLength=1,maxLength=100"`
	Base64   string `json:"base64" jsonschema:"the file's bytes, standard base64" schema:"minLength=1,maxLength=900000,contentEncoding=base64"`
	Purpose  string `json:"purpose,omitempty" jsonschema:"artwork (default), logo, or portrait (checked: at least 256x256, no PDF)" schema:"enum=artwork|logo|portrait"`
}

// ArtworkFileInput is POST /artwork's form of upload_artwork: the raw
// body and its headers, as the REST face hands them over (tools.Raw).
type ArtworkFileInput struct {
	Filename string `json:"filename,omitempty" jsonschema:"X-Artwork-Filename" schema:"maxLength=1000"`
	Mime     string `json:"mime,omitempty" jsonschema:"the Content-Type's media type" schema:"maxLength=200"`
	Purpose  string `json:"purpose,omitempty" jsonschema:"X-Artwork-Purpose" schema:"maxLength=100"`
	Body     string `json:"body" jsonschema:"the body, base64" schema:"maxLength=7000000"`
}

// GetArtworkInput names one asset.
type GetArtworkInput struct {
	ID      string `json:"id" jsonschema:"the asset (asset_...)" schema:"minLength=1,maxLength=100"`
	Preview string `json:"preview,omitempty" jsonschema:"1 shows an image inline instead of as a download (PDFs are always downloads)" schema:"enum=0|1|true|false"`
}

// ImportPhotoInput is import_recipient_photo's input.
type ImportPhotoInput struct {
	URL             string `json:"url" jsonschema:"a direct public HTTPS link to a PNG, JPEG or WebP image (not a LinkedIn or sharing page)" schema:"minLength=1,maxLength=2000,format=uri,pattern=^[Hh][Tt][Tt][Pp][Ss]://"`
	RightsConfirmed bool   `json:"rightsConfirmed" jsonschema:"true: the user confirmed they may use this photo"`
}

// UpdatePhotoInput is update_recipient_photo's input.
type UpdatePhotoInput struct {
	ID              string `json:"id" jsonschema:"the gift (send_...)" schema:"minLength=1,maxLength=100"`
	Version         int    `json:"version" jsonschema:"the portrait's version as last read" schema:"minimum=1,maximum=1000000"`
	Action          string `json:"action" jsonschema:"approve (with rightsConfirmed), replace (with assetId) or reject" schema:"enum=approve|replace|reject"`
	RightsConfirmed bool   `json:"rightsConfirmed,omitempty" jsonschema:"approve: true, the user authorized this image"`
	AssetID         string `json:"assetId,omitempty" jsonschema:"replace: the new photo (asset_...)" schema:"maxLength=100"`
}

const descUpdatePhoto = "Approve, replace or reject a gift's portrait photo, only with the user's explicit authorization for that image. " +
	"Send the portrait's current version (get_send); changes close once the order is in production."

const descUploadArtwork = "Upload a file (PNG, JPEG, WebP or PDF, up to 5 MiB; base64 up to 900,000 characters) as an artwork asset. " +
	"Then name its id in customization.logoAssetId, a person's assetIds or photo (purpose portrait)."

const descImportPhoto = "Import a person's photo from a direct public HTTPS image URL, with the user's confirmation of rights. " +
	"Returns an artwork asset; use its id in a person's photo ({source: upload, assetId}) or update_recipient_photo."

const descGetArtwork = "The private file of an artwork asset of this workspace; ?preview=1 shows an image inline. PDFs are always downloads."

// artworkMediaTypes are the types an artwork file has, as a route's Produces.
var artworkMediaTypes = strings.Join(artwork.Mimes, ", ")

// artworkTools are the artwork tools: upload, photo import and the file.
func artworkTools(app *giftwell.App) []Tool {
	restUpload := RESTForm("Upload a file as raw bytes (Content-Type image/png, image/jpeg, image/webp or application/pdf; up to 5 MiB) with X-Artwork-Filename and optional X-Artwork-Purpose.",
		func(ctx context.Context, p core.Principal, in ArtworkFileInput) (artwork.Asset, error) {
			body, err := artwork.DecodeBase64(in.Body, "body")
			if err != nil {
				return artwork.Asset{}, err
			}
			return app.Artwork.Upload(ctx, p, artwork.UploadInput{
				Filename: in.Filename, Mime: in.Mime, Purpose: in.Purpose, Body: body,
				Fields: artwork.UploadFields{Filename: "X-Artwork-Filename", Mime: "Content-Type", Purpose: "X-Artwork-Purpose", Body: "body"},
			})
		})
	raw := RawBody(Raw{
		MediaTypes: artwork.Mimes, MaxBytes: artwork.MaxFileBytes, BodyField: "body", MediaTypeField: "mime",
		Headers: []RawHeader{
			{Header: "X-Artwork-Filename", Field: "filename", Required: true, Description: "letters, digits, spaces, dots, underscores, parentheses, hyphens; up to 180 characters; extension matching the type"},
			{Header: "X-Artwork-Purpose", Field: "purpose", Description: "portrait checks the portrait bounds; logo marks a logo"},
		},
	})
	return []Tool{
		Define("upload_artwork", descUploadArtwork, ScopeWrite, core.ActUploadArtwork,
			func(ctx context.Context, p core.Principal, in UploadArtworkInput) (artwork.Asset, error) {
				body, err := artwork.DecodeBase64(in.Base64, "base64")
				if err != nil {
					return artwork.Asset{}, err
				}
				return app.Artwork.Upload(ctx, p, artwork.UploadInput{Filename: in.Filename, Mime: in.Mime, Purpose: in.Purpose, Body: body})
			},
			Title("Upload artwork"), REST(http.MethodPost, "/artwork", http.StatusCreated, restUpload, raw)),
		Define("import_recipient_photo", descImportPhoto, ScopeWrite, core.ActUploadArtwork,
			func(ctx context.Context, p core.Principal, in ImportPhotoInput) (artwork.Asset, error) {
				return app.Artwork.ImportPhoto(ctx, p, artwork.PhotoImport{URL: in.URL, RightsConfirmed: in.RightsConfirmed})
			},
			Title("Import a recipient photo"), OpenWorld(), REST(http.MethodPost, "/artwork/import-photo", http.StatusCreated)),
		Define("update_recipient_photo", descUpdatePhoto, ScopeDash, core.ActUpdatePhoto,
			func(ctx context.Context, p core.Principal, in UpdatePhotoInput) (artwork.Portrait, error) {
				return app.Artwork.UpdatePhoto(ctx, p, in.ID, artwork.PhotoChange{
					Version: in.Version, Action: artwork.PhotoAction(in.Action), RightsConfirmed: in.RightsConfirmed, AssetID: in.AssetID,
				})
			},
			Title("Update a gift's portrait"), REST(http.MethodPost, "/sends/{id}/photo", http.StatusOK)),
		Define("get_artwork", descGetArtwork, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in GetArtworkInput) (File, error) {
				f, err := app.Artwork.Get(ctx, p, in.ID)
				if err != nil {
					return File{}, err
				}
				inline := (in.Preview == "1" || in.Preview == "true") && f.Mime != artwork.MimePDF
				return File{Name: f.Filename, Body: f.Body, Type: f.Mime, Inline: inline}, nil
			},
			Title("Read an artwork file"), RESTOnly(), ReadOnly(), REST(http.MethodGet, "/artwork/{id}", http.StatusOK, Produces(artworkMediaTypes))),
	}
}
