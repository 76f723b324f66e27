package web

import (
	"net/http"

	"github.com/giftwell/giftwell/internal/webshell"
)

// staticHandler serves the shell's static files (stylesheet and script,
// shared with the OAuth consent page) under /static/. Pages link them with
// the shell's "asset" template function.
func staticHandler() http.Handler { return webshell.StaticHandler() }
