package artwork

import (
	"time"

	"github.com/giftwell/giftwell/sql/db"
)

// The media types an asset may have.
const (
	MimePNG  = "image/png"
	MimeJPEG = "image/jpeg"
	MimeWebP = "image/webp"
	MimePDF  = "application/pdf"
)

// Mimes lists the media types an asset may have, in the spec's order.
var Mimes = []string{MimePNG, MimeJPEG, MimeWebP, MimePDF}

// Purpose is what a file is for: artwork (the default), a logo, or a
// person's portrait.
type Purpose string

// The purposes.
const (
	PurposeArtwork  Purpose = "artwork"
	PurposeLogo     Purpose = "logo"
	PurposePortrait Purpose = "portrait"
)

// The limits of files (the spec's Limits table).
const (
	// MaxFileBytes is the largest file (5 MiB).
	MaxFileBytes = 5 << 20
	// MaxBase64Chars bounds upload_artwork's base64 text.
	MaxBase64Chars = 900_000
	// MaxFilenameChars bounds a filename.
	MaxFilenameChars = 180
	// MaxFiles and MaxStorageBytes bound a workspace's files.
	MaxFiles        = 1000
	MaxStorageBytes = 3000 << 20
	// MaxUploadsPerDay, MaxAttemptsPerDay and MaxPhotoImportsPerDay bound
	// a workspace's uploads per UTC day.
	MaxUploadsPerDay      = 550
	MaxAttemptsPerDay     = 560
	MaxPhotoImportsPerDay = 550
	// MinPortraitSide, MaxSide and MaxPixels bound images: a portrait is at
	// least 256x256; no image is over 12,000 a side or 40 megapixels.
	MinPortraitSide = 256
	MaxSide         = 12_000
	MaxPixels       = 40_000_000
)

// Asset is an artwork file as the API shows it.
type Asset struct {
	ID       string `json:"id" jsonschema:"the asset (asset_...)"`
	Filename string `json:"filename" jsonschema:"the file's name"`
	Mime     string `json:"mime" jsonschema:"image/png, image/jpeg, image/webp or application/pdf"`
	Bytes    int64  `json:"bytes" jsonschema:"the file's size"`
}

// LibraryItem is an asset as the artwork library lists it.
type LibraryItem struct {
	Asset
	Purpose   Purpose
	Width     int
	Height    int
	SourceURL string
	CreatedAt time.Time
}

// assetFromRow maps a stored asset.
func assetFromRow(r db.ArtworkAsset) Asset {
	return Asset{ID: r.ID, Filename: r.Filename, Mime: r.Mime, Bytes: r.Bytes}
}

// File is an asset's bytes with what serving them needs.
type File struct {
	Asset
	Body []byte
}
