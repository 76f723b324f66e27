// Package rest is the REST face of Giftwell: the routes under /api/v1,
// derived from the tool registry (the REST-only operations, such as
// GET /catalog, GET /session and the CSV export, are registry entries too),
// and the two OpenAPI documents.
//
// The handler's routes are relative to the base path. Mount it with the
// prefix stripped, either as a chi sub-router or through http.StripPrefix:
//
//	r.Mount("/api/v1", rest.NewHandler(rest.Config{App: app, Tools: tools.All(app), Log: log}))
//	mux.Handle("/api/v1/", http.StripPrefix("/api/v1", h))
//
// Every tool with a Route becomes one route, served by one handler from the
// route's metadata: which credentials it reads (required, optional or none),
// whether sign-in connections may use it, whether it answers with a file,
// and the route's own form of the tool where it has one. The handler merges
// the path parameters, the query parameters (GET and DELETE) or the JSON
// body (POST, PUT and PATCH) into one arguments object, calls Tool.Call (or
// the form's Call) and writes {data: out} with the route's status. Every
// refusal, from any layer, is written by one translator as core's error
// envelope (core.EnvelopeOf).
package rest
