// Package requestlog is the HTTP adapter's request log: the latest
// requests a handler answered, kept in memory (Log), listed with filters
// (Filter) and followed as server-sent events (Log.Follow); and what names
// a request in every log line, its id (ID, Header, IDFrom, LogHandler).
// httpapi mounts it: its Handler keeps a Log and serves it at GET
// /sandbox/requests and /sandbox/requests/stream. It is a package of its
// own because nothing of it depends on the engine: it holds requests as the
// network saw them, never a body or a secret.
//
//	log := requestlog.New(1000)
//	log.Add(requestlog.Request{Method: "POST", Path: "/quotes", Status: 201})
//	latest := log.Latest(10, requestlog.Filter{})
package requestlog
