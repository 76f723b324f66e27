package artwork

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// maxPhotoURL bounds a photo's URL, in bytes.
const maxPhotoURL = 2000

// PhotoImport is import_recipient_photo's input.
type PhotoImport struct {
	URL             string
	RightsConfirmed bool
}

// sharingHosts are sites whose links are pages about a file (profiles,
// sharing and social pages), never the image itself; subdomains included.
var sharingHosts = []string{
	"linkedin.com", "lnkd.in", "drive.google.com", "docs.google.com", "photos.google.com", "photos.app.goo.gl",
	"dropbox.com", "onedrive.live.com", "1drv.ms", "sharepoint.com", "icloud.com", "box.com", "wetransfer.com",
	"we.tl", "facebook.com", "fb.com", "instagram.com", "twitter.com", "x.com", "flickr.com", "imgur.com",
}

// ImportPhoto fetches a person's photo from a direct public HTTPS image
// URL (outside any transaction, through Photos: no private address, no
// redirect, at most MaxFileBytes and the fetcher's timeout) and stores it
// as a portrait asset. The user must have confirmed the rights to it. A
// fetch that fails is told in a fixed phrase (fetchPhrase); its cause is
// logged, never returned.
// Codes: VALIDATION_ERROR naming url (not HTTPS, a LinkedIn or sharing
// page, an HTML page, not a PNG, JPEG or WebP, not a portrait, not
// fetched) or rightsConfirmed; RATE_LIMIT (550 photo imports per UTC day,
// retryAfterMs to midnight); INVALID_REQUEST_STATE when storage is full;
// SERVICE_UNAVAILABLE when the blob store fails; those of Authorize
// (ActUploadArtwork: DEMO_LIMITED in a demo workspace).
func (s *Service) ImportPhoto(ctx context.Context, p core.Principal, in PhotoImport) (Asset, error) {
	if err := core.Authorize(p, core.ActUploadArtwork, ""); err != nil {
		return Asset{}, err
	}
	if !in.RightsConfirmed {
		return Asset{}, core.Invalid("rightsConfirmed", "must be true: the user confirmed they may use this photo")
	}
	u, err := s.checkPhotoURL(in.URL)
	if err != nil {
		return Asset{}, err
	}
	if err := s.checkDaily(ctx, p.WorkspaceID, countPhotoImport); err != nil {
		return Asset{}, err
	}
	if s.Photos == nil {
		return Asset{}, core.Internal(fmt.Errorf("artwork: no photo fetcher configured"))
	}
	got, err := s.Photos.FetchPhoto(ctx, u.String())
	if err != nil {
		s.Log.InfoContext(ctx, "artwork: photo not fetched", "workspace", p.WorkspaceID, "host", u.Host, "err", err)
		return Asset{}, core.Invalid("url", "could not be fetched: %s", fetchPhrase(err))
	}
	info, err := checkFetched(got)
	if err != nil {
		return Asset{}, err
	}
	return s.store(ctx, p, newFile{
		filename: photoFilename(u, info.Mime), purpose: PurposePortrait, info: info, body: got.Body,
		sourceURL: u.String(), counter: countPhotoImport, field: "url",
	})
}

// RecentPhotoImport is the ready portrait of p's workspace imported from
// rawURL (as ImportPhoto normalizes it) since since, if any: a source
// import sent again after a failure uses the photos its first try fetched
// instead of fetching and counting them again. A URL ImportPhoto would
// refuse has none.
func (s *Service) RecentPhotoImport(ctx context.Context, p core.Principal, rawURL string, since time.Time) (Asset, bool, error) {
	u, err := s.checkPhotoURL(rawURL)
	if err != nil {
		return Asset{}, false, nil
	}
	row, err := db.New(s.DB).ArtworkRecentPhotoImport(ctx, db.ArtworkRecentPhotoImportParams{WorkspaceID: p.WorkspaceID, SourceUrl: u.String(), Since: since})
	if core.IsNoRows(err) {
		return Asset{}, false, nil
	}
	if err != nil {
		return Asset{}, false, core.Internal(err)
	}
	return assetFromRow(row), true, nil
}

// checkPhotoURL refuses a URL that cannot be a direct public image: not
// https (unless the operator's allowed prefixes admit it, as they do for
// webhooks), with credentials, or on a profile or sharing site.
func (s *Service) checkPhotoURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if len(raw) > maxPhotoURL {
		return nil, core.Invalid("url", "is longer than %d characters", maxPhotoURL)
	}
	u, err := url.Parse(raw)
	allowed := err == nil && s.Photos != nil && s.Photos.Allowed(raw)
	if err != nil || (u.Scheme != "https" && !allowed) || u.Host == "" || u.Opaque != "" {
		return nil, core.Invalid("url", "must be a direct https:// link to a PNG, JPEG or WebP image")
	}
	if u.User != nil {
		return nil, core.Invalid("url", "must not carry a user name or password")
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	for _, h := range sharingHosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			what := "a sharing or social page"
			if strings.Contains(h, "linkedin") || h == "lnkd.in" {
				what = "a LinkedIn page"
			}
			return nil, core.Invalid("url", "is %s, not an image; give the direct link to the image file itself", what)
		}
	}
	u.Fragment = ""
	return u, nil
}

// checkFetched judges what the URL answered: a 200 whose body is a PNG,
// JPEG or WebP portrait.
func checkFetched(got Fetched) (Inspected, error) {
	switch {
	case got.Status >= 300 && got.Status < 400:
		return Inspected{}, core.Invalid("url", "answered a redirect (HTTP %d), which is not followed; give the image's final address", got.Status)
	case got.Status != http.StatusOK:
		return Inspected{}, core.Invalid("url", "answered HTTP %d, not the image", got.Status)
	}
	mt, _, _ := mime.ParseMediaType(got.ContentType)
	if mt == "text/html" || mt == "application/xhtml+xml" {
		return Inspected{}, core.Invalid("url", "is an HTML page, not an image; give the direct link to the image file")
	}
	sniffed := Sniff(got.Body)
	if sniffed == "" || sniffed == MimePDF {
		return Inspected{}, core.Invalid("url", "is not a PNG, JPEG or WebP image (%s)", describe(got.Body))
	}
	info, err := Inspect(got.Body, sniffed, "url")
	if err != nil {
		return Inspected{}, err
	}
	if err := CheckPortrait(info, PurposePortrait, "url"); err != nil {
		return Inspected{}, err
	}
	return info, nil
}

// photoFilename names an imported photo after its URL's last path
// segment, kept to the filename rule, with the extension of its type.
func photoFilename(u *url.URL, mimeType string) string {
	base := path.Base(u.Path)
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	var b strings.Builder
	for _, r := range base {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" _()-", r) {
			b.WriteRune(r)
		} else {
			b.WriteRune('_')
		}
	}
	name := strings.TrimSpace(b.String())
	if name == "" || strings.Trim(name, "_") == "" {
		name = "photo"
	}
	ext := extensions[mimeType][0]
	if r := []rune(name); len(r) > MaxFilenameChars-len(ext) {
		name = string(r[:MaxFilenameChars-len(ext)])
	}
	return name + ext
}

// checkDaily refuses, before a photo is fetched, an import the day's limit
// would refuse anyway. It counts nothing (reserve does).
func (s *Service) checkDaily(ctx context.Context, workspaceID string, c counter) error {
	d, left := day(s.Clock.Now())
	return core.AsCoreError(s.InTx(ctx, func(q *db.Queries) error {
		counts, err := q.ArtworkDayLock(ctx, db.ArtworkDayLockParams{WorkspaceID: workspaceID, Day: d})
		if err != nil {
			return core.Internal(err)
		}
		return overDaily(counts, c, left)
	}))
}
