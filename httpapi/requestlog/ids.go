package requestlog

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/google/uuid"
)

// Header carries the id of every request on its response (and names it in
// the request log). A request that brings a well-formed one (ValidID)
// keeps it; any other gets a new one. It is not the reference's
// Request-Id, which echoes a signature challenge.
const Header = "X-Request-Id"

// ID returns the id of r: its own (Header) when well-formed, else a new
// one.
func ID(r *http.Request) string {
	if id := r.Header.Get(Header); ValidID(id) {
		return id
	}
	return uuid.NewString()
}

// ValidID reports whether id may be echoed in a header and a log: 1 to
// 128 letters, digits, '.', '_', ':' or '-'.
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for _, c := range []byte(id) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

// Exchange is what a request's context carries about it (WithExchange):
// its id, the client id of the token it authenticated with (set once
// known) and the route that serves it ("METHOD path", "" for none).
type Exchange struct {
	ID       string
	ClientID string
	Route    string
}

// exchangeKey keys the exchange in a request's context.
type exchangeKey struct{}

// WithExchange returns ctx carrying x, which the request's handlers fill
// in as they learn it.
func WithExchange(ctx context.Context, x *Exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, x)
}

// ExchangeFrom returns the exchange ctx carries (WithExchange), or nil.
func ExchangeFrom(ctx context.Context) *Exchange {
	x, _ := ctx.Value(exchangeKey{}).(*Exchange)
	return x
}

// IDFrom returns the id of the request whose exchange ctx (or a context
// derived from it) carries, "" for any other context.
func IDFrom(ctx context.Context) string {
	if x := ExchangeFrom(ctx); x != nil {
		return x.ID
	}
	return ""
}

// LogHandler returns a slog handler that writes through next and adds
// request_id to every record logged with the context of a request
// (IDFrom), so that the lines of one request can be told apart.
func LogHandler(next slog.Handler) slog.Handler {
	if h, ok := next.(idHandler); ok {
		return h
	}
	return idHandler{next}
}

// idHandler is LogHandler's handler.
type idHandler struct{ slog.Handler }

// Handle adds the request id of ctx, if any, to rec.
func (h idHandler) Handle(ctx context.Context, rec slog.Record) error {
	if id := IDFrom(ctx); id != "" {
		rec.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, rec)
}

// WithAttrs keeps adding request ids to the new handler's records.
func (h idHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return idHandler{h.Handler.WithAttrs(attrs)}
}

// WithGroup keeps adding request ids to the new handler's records.
func (h idHandler) WithGroup(name string) slog.Handler {
	return idHandler{h.Handler.WithGroup(name)}
}
