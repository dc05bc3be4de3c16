package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi/requestlog"
	"github.com/paygrid/payments/validate"
)

// Config configures the handler. The zero value serves the API at the root
// path with a 1 MiB body limit.
type Config struct {
	// BasePath is prefixed to every route, e.g. "/2025-10-13". No trailing slash.
	BasePath string
	// MaxBodyBytes caps request bodies (413 above it). Zero means 1 MiB.
	MaxBodyBytes int64
	// MaxUploadBytes caps document uploads. Zero means 10 MiB.
	MaxUploadBytes int64
	// BodyReadTimeout bounds the time to read a request body once its
	// headers have arrived (a client that sends Content-Length: 100 and
	// then 6 bytes is answered 400 when it passes). Zero means 30 seconds.
	// It is set on the connection through http.ResponseController, so it
	// works under any net/http server; a mounting server should still set
	// http.Server ReadHeaderTimeout, ReadTimeout and IdleTimeout (README).
	BodyReadTimeout time.Duration
	// MaxStringLength caps every string of a JSON request body, in
	// characters. Zero means DefaultMaxStringLength.
	MaxStringLength int
	// Logger receives a line per request at Info (method, path, status,
	// duration, request id, idempotency key; Error for 5xx) and request
	// errors. Every line it is given while serving a request carries the
	// request's id as request_id (LogHandler wraps its handler). Nil
	// discards.
	Logger *slog.Logger
	// TestClock, on a sandbox engine, is the clock the /sandbox/clock routes
	// read and move (ours; sandbox.Controls implements it). Nil: those
	// routes answer NOT_IMPLEMENTED.
	TestClock TestClock
	// RequestLogSize is how many of the latest requests the handler keeps
	// in memory for GET /sandbox/requests and Handler.Requests (time,
	// method, path, status, error code, duration, request id, idempotency
	// key, client id; never a secret or a body). Zero means 1000;
	// negative keeps none.
	RequestLogSize int
	// Brand is the name the wire carries where it names the platform's
	// maker; "" means payments.DefaultBrand ("Service"). Another name, such
	// as the reference's own, lets the reference's clients work unchanged:
	// the signed-retry header is "<Brand>-Wallet-Signature", and every code
	// and field that carries the word (SERVICE_SWITCH_ERROR,
	// serviceApiMultiplier, serviceOperationsStatus, ...) carries the brand
	// instead, in answers, request bodies and query parameters alike (see
	// payments.Brand). It must be a valid payments.NewBrand name.
	Brand string
}

// Handler is the REST API: an http.Handler over one engine, holding the
// route table's mux and the in-memory request log. Create it with New; it
// is safe for concurrent use and holds no other state, so an engine may be
// served by several handlers (under several base paths or brands).
type Handler struct {
	eng      *payments.Engine
	cfg      Config
	brand    *payments.Brand // nil: the default brand
	mux      *http.ServeMux
	methods  []string        // every method some route uses, to tell 405 from 404
	requests *requestlog.Log // the latest requests; nil keeps none
	obs      payments.Observer
	closing  closing // closed by Close: the streams end
}

// New builds the API handler over eng, applying the defaults of cfg's zero
// fields and registering every route of the table under cfg.BasePath. It
// panics when cfg.Brand is not a valid brand name (payments.NewBrand tells
// why): a misspelt brand is a configuration error found at start, not a
// wire name that silently stays the default.
func New(eng *payments.Engine, cfg Config) *Handler {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.MaxUploadBytes <= 0 {
		cfg.MaxUploadBytes = 10 << 20
	}
	if cfg.BodyReadTimeout <= 0 {
		cfg.BodyReadTimeout = 30 * time.Second
	}
	if cfg.MaxStringLength <= 0 {
		cfg.MaxStringLength = DefaultMaxStringLength
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.Logger = slog.New(LogHandler(cfg.Logger.Handler()))
	cfg.BasePath = strings.TrimRight(cfg.BasePath, "/")
	brand, err := payments.NewBrand(cfg.Brand)
	if err != nil {
		panic("httpapi: Config.Brand: " + err.Error())
	}
	h := &Handler{eng: eng, cfg: cfg, brand: brand, mux: http.NewServeMux(), obs: eng.Observer(), closing: closing{ch: make(chan struct{})}}
	switch {
	case cfg.RequestLogSize == 0:
		h.requests = requestlog.New(1000)
	case cfg.RequestLogSize > 0:
		h.requests = requestlog.New(cfg.RequestLogSize)
	}
	for _, rt := range h.routes() {
		h.handle(rt)
	}
	return h
}

// route is one operation: method and path pattern (net/http syntax), the
// permission a write needs, and the handler.
type route struct {
	method string
	path   string
	perm   payments.Permission // "" for reads any token may make
	fn     handlerFunc
	public bool // no credentials (agent device-code redemption)
	agent  bool // the agent's Bearer credential instead of the platform's
	upload bool // bodies up to MaxUploadBytes
	// keyed routes require an Idempotency-Key header (400 INVALID_INPUT
	// naming it when absent), as the reference marks on some POSTs.
	keyed bool
	// events streams server-sent events: always when fn is nil, else when
	// the request accepts text/event-stream.
	events func(w http.ResponseWriter, r *request)
}

// handlerFunc answers one request: the success status and the value to encode
// as JSON (nil for no body), or an error for the one error writer.
type handlerFunc func(r *request) (int, any, error)

// handle registers rt on the mux as "METHOD BasePath+path", and records its
// method so that ServeHTTP can tell a known path on another method (405)
// from an unknown path (404). A request it serves is named "METHOD path"
// (without the base path) for the engine's Observer.
func (h *Handler) handle(rt route) {
	pattern := rt.method + " " + h.cfg.BasePath + rt.path
	name := rt.method + " " + rt.path
	h.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if x := requestlog.ExchangeFrom(req.Context()); x != nil {
			x.Route = name
		}
		h.serve(w, req, rt)
	}))
	if !slices.Contains(h.methods, rt.method) {
		h.methods = append(h.methods, rt.method)
	}
}

// allowedMethods lists the methods some route serves r's path with.
func (h *Handler) allowedMethods(r *http.Request) []string {
	var out []string
	for _, m := range h.methods {
		probe := *r
		probe.Method = m
		if _, pattern := h.mux.Handler(&probe); pattern != "" {
			out = append(out, m)
		}
	}
	return out
}

// ServeHTTP dispatches to the route table, answering unknown paths with 404
// NOT_FOUND, known paths on other methods with 405 METHOD_NOT_ALLOWED, and
// panics with 500 INTERNAL_ERROR, all in the error body. Every response
// carries a request id (RequestIDHeader) and every request is logged.
func (h *Handler) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w, r, logRequest := h.observe(rw, r)
	defer logRequest()
	defer func() {
		if v := recover(); v != nil {
			// http.ErrAbortHandler is net/http's own way to abort a
			// response: it is not a failure to answer for.
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.cfg.Logger.ErrorContext(r.Context(), "panic serving request", "method", r.Method, "path", requestlog.MaskPath(r.URL.Path), "panic", v)
			h.writeError(w, payments.Errorf(payments.CodeInternalError, "an internal error occurred"))
		}
	}()
	if _, pattern := h.mux.Handler(r); pattern != "" {
		h.mux.ServeHTTP(w, r)
		return
	}
	if allowed := h.allowedMethods(r); len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		h.writeError(w, payments.Errorf(payments.CodeMethodNotAllowed, "%s is not allowed on %s", r.Method, r.URL.Path))
		return
	}
	h.writeError(w, payments.Errorf(payments.CodeNotFound, "no operation at %s %s", r.Method, r.URL.Path))
}

// serve authenticates, authorizes, applies idempotency to POSTs and runs the
// route's handler: the request pipeline of the package documentation, step
// by step. Every refusal goes through writeError, so a request refused
// before its handler gets the same error body as one the engine refuses.
func (h *Handler) serve(w http.ResponseWriter, hr *http.Request, rt route) {
	r := &request{Request: hr, eng: h.eng, h: h}
	// Query filters carry branded names too (serviceOperationsStatus=...):
	// translate them before any handler reads them.
	if h.brand != nil && hr.URL.RawQuery != "" {
		hr.URL.RawQuery = h.brand.IncomingString(hr.URL.RawQuery)
	}
	scope := hr.Method + " " + hr.URL.Path
	switch {
	case rt.agent:
		a, err := h.authenticateAgent(hr)
		if err != nil {
			if payments.CodeOf(err) == payments.CodeUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="payments"`)
			}
			h.writeError(w, err)
			return
		}
		r.agent = a
		if x := requestlog.ExchangeFrom(hr.Context()); x != nil {
			x.ClientID = a.ID
		}
		// Idempotency keys of one agent never meet another's answers.
		scope += " " + a.ID
	case !rt.public:
		tok, err := h.authenticate(hr)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Basic realm="payments"`)
			h.writeError(w, err)
			return
		}
		if rt.perm != "" && !tok.Has(rt.perm) {
			h.writeError(w, payments.Errorf(payments.CodeForbidden, "this API token lacks the %s permission", rt.perm))
			return
		}
		r.token = tok
		if x := requestlog.ExchangeFrom(hr.Context()); x != nil {
			x.ClientID = tok.ClientID
		}
	}
	// Uploads (documents, CSV imports) have their own, larger cap.
	limit := h.cfg.MaxBodyBytes
	if rt.upload {
		limit = h.cfg.MaxUploadBytes
	}
	body, err := readBody(w, hr, limit, h.cfg.BodyReadTimeout)
	if err != nil {
		h.writeError(w, err)
		return
	}
	// A multipart body is neither JSON nor translated: a file's bytes stay
	// as they were sent.
	if !rt.upload {
		body = h.brand.Incoming(body)
		if err := checkBody(hr, body, h.cfg.MaxStringLength); err != nil {
			h.writeError(w, err)
			return
		}
	}
	r.body = body
	if rt.events != nil && (rt.fn == nil || acceptsEventStream(hr)) {
		rt.events(w, r)
		return
	}
	key := hr.Header.Get("Idempotency-Key")
	if rt.keyed && key == "" {
		h.writeError(w, payments.Invalid(validate.Errors{{Field: "Idempotency-Key", Message: "this operation requires an Idempotency-Key header (a unique value of at most 255 characters, such as a UUID)"}}))
		return
	}
	// Only POSTs create or move anything that a retry could repeat; every
	// other request runs as it comes.
	if hr.Method != http.MethodPost || key == "" {
		buf := responseBuffers.Get().(*[]byte)
		status, out := h.run(r, rt, *buf)
		h.writeRaw(w, status, out)
		responseBuffers.Put(buf)
		return
	}
	// The scope keeps a key from meeting another route's answers (or a
	// signed retry its challenge's: signedScope); the fingerprint is the
	// body as the engine sees it (after translation), so a retry must
	// repeat it byte for byte or be CONFLICT.
	scope += h.signedScope(hr)
	eng, err := h.eng.WithIdempotency(payments.Idempotency{Scope: scope, Key: key, Request: append([]byte("body:"), body...)})
	if err != nil {
		h.writeError(w, err)
		return
	}
	r.eng = eng
	status, out := h.run(r, rt, nil)
	if eng.Replayed() {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	h.writeRaw(w, status, out)
}

// responseBuffers hold the buffers responses that encode themselves
// (jsonAppender) are written from: a body written is not kept (net/http
// copies it), so its buffer serves the next response. Only the buffer is
// put back, never a body that outgrew it.
var responseBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

// writeRaw writes an encoded answer in the handler's brand.
func (h *Handler) writeRaw(w http.ResponseWriter, status int, body []byte) {
	writeRaw(w, status, h.brand.Outgoing(body))
}

// writeError writes err's error body in the handler's brand.
func (h *Handler) writeError(w http.ResponseWriter, err error) {
	status, b := encodeError(err)
	h.writeRaw(w, status, b)
}

// run calls the handler and encodes its outcome.
func (h *Handler) run(r *request, rt route, buf []byte) (status int, body []byte) {
	status, v, err := rt.fn(r)
	if err != nil {
		// A 4xx is the client's to fix; a 5xx is ours, so it is logged
		// with its cause, which the error body never shows.
		// A commit whose outcome is unknown says so, with the operation
		// (the route), so that an operator can check what took effect.
		switch {
		case errors.Is(err, payments.ErrCommitUnknown):
			h.cfg.Logger.ErrorContext(r.ctx(), "commit outcome unknown: the operation may or may not have taken effect",
				"operation", rt.method+" "+rt.path, "method", r.Method, "path", requestlog.MaskPath(r.URL.Path), "err", err)
		case payments.CodeOf(err).Status() >= 500:
			h.cfg.Logger.ErrorContext(r.ctx(), "request failed", "method", r.Method, "path", requestlog.MaskPath(r.URL.Path), "err", err)
		}
		return encodeError(err)
	}
	if v == nil {
		return status, nil
	}
	b, err := appendJSON(buf, v)
	if err != nil {
		h.cfg.Logger.ErrorContext(r.ctx(), "encoding response", "err", err)
		return encodeError(err)
	}
	return status, b
}

// authenticate checks the platform's Basic credentials: UNAUTHORIZED when
// they are missing or malformed, else whatever Platform.Authenticate
// answers for the client id and secret.
func (h *Handler) authenticate(r *http.Request) (*payments.Token, error) {
	user, secret, ok := r.BasicAuth()
	if !ok {
		return nil, payments.Errorf(payments.CodeUnauthorized, "missing or malformed Basic credentials; send Authorization: Basic base64(clientId:clientSecret)")
	}
	return h.eng.Platform.Authenticate(r.Context(), user, secret)
}

// authenticateAgent checks an agent's Bearer credential; platform (Basic)
// credentials are refused on agent routes.
func (h *Handler) authenticateAgent(r *http.Request) (*payments.Agent, error) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return nil, payments.Errorf(payments.CodeUnauthorized, "agent operations take the agent's credential: send Authorization: Bearer <accessToken>")
	}
	return h.eng.Agents.Authenticate(r.Context(), strings.TrimSpace(token))
}

// readBody reads r's whole body, at most limit bytes (PAYLOAD_TOO_LARGE
// above it), within timeout (INVALID_INPUT when it does not arrive). The
// body is buffered before any handler runs, because the idempotency
// fingerprint, the body checks and the brand translation all need it
// whole. A request without a body reads as nil.
func readBody(w http.ResponseWriter, r *http.Request, limit int64, timeout time.Duration) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	// Bound the body read on the connection itself (ignored where the
	// writer does not support deadlines, as in tests' recorders). A body
	// read in time lifts the bound again, so a kept-alive connection is not
	// cut later; a failed one keeps it and closes the connection, so that
	// net/http does not wait for the rest of the body after the answer.
	rc := http.NewResponseController(w)
	bounded := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
	var body []byte
	var err error
	if n := r.ContentLength; n > 0 && n <= limit {
		// A declared length within the limit: read exactly that (the
		// server cuts the body there), in one allocation of its size.
		body = make([]byte, n)
		_, err = io.ReadFull(r.Body, body)
	} else {
		var buf bytes.Buffer
		_, err = buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
		body = buf.Bytes()
	}
	if bounded && err == nil {
		_ = rc.SetReadDeadline(time.Time{})
	} else if err != nil {
		w.Header().Set("Connection", "close")
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, payments.Errorf(payments.CodeBodyTooLarge, "request body exceeds %d bytes", limit)
	case err != nil:
		return nil, payments.Errorf(payments.CodeInvalidInput, "could not read the request body")
	}
	return body, nil
}

// ctx is a shorthand for the request context.
func (r *request) ctx() context.Context { return r.Context() }
