// Package web is the web app of Giftwell: the server-rendered pages where a
// person signs in, manages the team, API keys and workspace settings, and
// accepts an invitation. Later issues add the campaign review page, the
// approval queue, billing and the OAuth consent page to the same shell.
//
// Mount it at the site root, after the API and MCP routes:
//
//	mux.Handle("/", web.NewHandler(web.Config{App: app, Log: log}))
//
// Pages are html/template files embedded with their assets; there is no
// build step. Every page is one template in templates/ that defines "title"
// and "main" and is drawn inside the shared shell
// (internal/webshell/templates/layout.html), plus one thin handler (parse
// the form, one core call, render). Adding a page is those two things
// and a line in routes.
//
// Every state-changing request passes http.CrossOriginProtection with the
// site's origin trusted, and the session cookie is SameSite=Lax, so a
// cross-site form post is refused with 403 and changes nothing.
package web
