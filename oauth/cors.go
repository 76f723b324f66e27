package oauth

import (
	"net/http"

	"github.com/rs/cors"
)

// MCP clients that run in a browser (an inspector, a web chat's own client)
// discover and use the authorization server from another origin: they read
// the metadata documents, register, exchange codes and refresh tokens with
// fetch. Those endpoints carry no cookie and no ambient authority (a client
// authenticates with what it sends), so any origin may call them: they
// answer CORS preflights and allow every origin, without credentials. The
// consent page and the disconnect page stay same-origin: they act on the
// signed-in session (http.CrossOriginProtection).

// corsHeaders are the request headers a browser client may send: the body's
// type, client authentication, and the MCP version header the TypeScript
// SDK adds to discovery.
var corsHeaders = []string{"Authorization", "Content-Type", "Mcp-Protocol-Version"}

// publicCORS lets any origin call h with methods (an OPTIONS preflight is
// answered here, with a day's max age).
func publicCORS(h http.Handler, methods ...string) http.Handler {
	return cors.New(cors.Options{
		AllowedOrigins: []string{"*"},
		AllowedMethods: methods,
		AllowedHeaders: corsHeaders,
		MaxAge:         86400,
	}).Handler(h)
}
