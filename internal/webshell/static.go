package webshell

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"strings"
)

// StaticPrefix is the path the static files are served under.
const StaticPrefix = "/static/"

// staticFS is static/ of the embedded files.
var staticFS = func() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err)
	}
	return sub
}()

// assetVersion changes whenever any static file changes; asset URLs carry it
// so that browsers may cache them for a long time.
var assetVersion = func() string {
	sum := sha256.New()
	_ = fs.WalkDir(staticFS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(staticFS, p)
		sum.Write([]byte(p))
		sum.Write(b)
		return err
	})
	return hex.EncodeToString(sum.Sum(nil))[:12]
}()

// AssetURL is the cache-busting URL of a static file, "/static/app.css?v=...".
func AssetURL(name string) string { return StaticPrefix + name + "?v=" + assetVersion }

// StaticHandler serves the embedded static files under /static/: for a
// long time when the URL carries the current version, otherwise revalidated;
// no directory listings.
func StaticHandler() http.Handler {
	files := http.StripPrefix(StaticPrefix, http.FileServerFS(staticFS))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no directory listings
			return
		}
		if r.URL.Query().Get("v") == assetVersion {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		files.ServeHTTP(w, r)
	})
}
