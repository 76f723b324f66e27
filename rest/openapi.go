package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// OpenAPI generates the REST API's OpenAPI 3.1 document from the registry
// (every tool with a Route, the REST-only ones included) and its
// OpenAPI 3.0.3 equivalent, both as indented JSON ending in a newline. The
// server is cfg.BaseURL(). The output depends only on its inputs, so it can
// be committed and checked for staleness.
func OpenAPI(list []tools.Tool, cfg core.Config) (v31, v30 []byte, err error) {
	ops, err := operations(list)
	if err != nil {
		return nil, nil, err
	}
	doc, err := buildDocument(ops, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("rest: openapi 3.1: %w", err)
	}
	if v31, err = json.MarshalIndent(doc, "", "  "); err != nil {
		return nil, nil, fmt.Errorf("rest: openapi 3.1: %w", err)
	}
	tree, err := decodeOrdered(v31)
	if err != nil {
		return nil, nil, fmt.Errorf("rest: openapi 3.0.3: %w", err)
	}
	if v30, err = json.MarshalIndent(downgrade(tree.(*object)), "", "  "); err != nil {
		return nil, nil, fmt.Errorf("rest: openapi 3.0.3: %w", err)
	}
	return append(v31, '\n'), append(v30, '\n'), nil
}

// documents builds the two documents once, on first use, and keeps the bytes.
type documents struct {
	get func() documentBytes
}

type documentBytes struct {
	v31, v30 []byte
	err      error
}

func newDocuments(list []tools.Tool, cfg core.Config) *documents {
	return &documents{get: sync.OnceValue(func() documentBytes {
		v31, v30, err := OpenAPI(list, cfg)
		return documentBytes{v31: v31, v30: v30, err: err}
	})}
}

// serveDocument serves the cached OpenAPI 3.1 document, or the 3.0.3 one.
func (s *server) serveDocument(v30 bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		d := s.docs.get()
		if d.err != nil {
			s.fail(w, r, core.Internal(d.err))
			return
		}
		body := d.v31
		if v30 {
			body = d.v30
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "public, max-age=300")
		h.Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write(body)
	}
}
